import { gap, words, type CueSpec } from '../red-flag-cue';

// Child emergency and unresponsive-person cues.

/** Child cues: who (baby, toddler, N month old) and the signs that make it an emergency for a child. */
export const CHILD_CUES: readonly CueSpec[] = [
  {
    id: 'child.subj',
    re: '(?:baby|babies|infant|newborn|toddler|son|daughter|child|kid|little one|little boy|little girl|boy|girl|twins?|grandson|granddaughter|nephew|niece)|\\d+ (?:day|week|month|year|yr|mo) olds?|(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve) (?:day|week|month|year) old',
    stems: words(
      'baby babies infant newborn toddler son daughter child kid little boy girl twin twins grandson granddaughter nephew niece old olds',
    ),
  },
  {
    id: 'child.infant',
    re: 'newborn|infant|(?:\\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve) (?:day|days|week|weeks) old|(?:1|2|one|two) (?:month|months|mo) old',
    stems: words('newborn infant old'),
  },
  {
    id: 'child.floppy',
    re: 'floppy|limp|lifeless|(?:like a )?rag ?doll|no muscle tone',
    stems: words('floppy limp lifeless rag ragdoll tone'),
    unless:
      /\b(floppy (ears?|hat|hats|disk|disc|toy|bunny|sun hat|hair)|with a limp|walk\w*|limping|knee|ankle|foot|bunny|teddy)\b/,
  },
  {
    id: 'child.breath',
    re: `(?:is not|not|stopped|has stopped|barely|is barely) breathing|grunting|(?:sucking|pulling|drawing) in${gap(3)} (?:ribs|rib|chest|neck|tummy)|ribs${gap(3)} (?:sucking|pulling|showing|caving)|flaring (?:nostrils|nose)`,
    stems: words('breathing grunting sucking pulling drawing ribs flaring'),
  },
  {
    id: 'child.breath_fast',
    re: `(?:breathing|breaths)${gap(2)} (?:really |very |so )?(?:fast|hard|noisy|rapid)`,
    stems: words('breathing breaths'),
  },
  {
    id: 'child.cry',
    re: `high pitched (?:cry|crying|scream|screaming|screams|wail|wailing)|(?:weak|moaning) (?:cry|crying)|moaning`,
    stems: words('pitched weak moaning'),
  },
  {
    id: 'child.swallow',
    re: `(?:swallowed|swallow|ate|eaten|put)${gap(3)} (?:battery|batteries|button battery|button cell|coin battery|coin cell|magnet|magnets|magnetic balls?)`,
    stems: words('battery batteries magnet magnets magnetic cell'),
  },
  {
    id: 'child.fall',
    re: `(?:fell|fallen|fall|dropped)${gap(5)} (?:head|stairs|bunk|bed|table|window|height|chair|balcony)|hit (?:his|her|their) head|hitting (?:his|her|their) head|head injury|bumped (?:his|her) head`,
    stems: words('fell fallen fall dropped head'),
  },
  {
    id: 'child.feed',
    re: '(?:will not|would not|not|is not|refusing to|refuses to|stopped|cannot) (?:feed|feeding|eat|eating|drink|drinking|take (?:the |a |her |his )?(?:bottle|breast|milk))',
    stems: words('feed feeding eat eating drink drinking take'),
  },
  {
    id: 'child.pale',
    re: '(?:very |really |so |ice )?cold(?: to (?:the )?touch)?|pale|blotchy|mottled|grey|gray|ashen',
    stems: words('cold pale blotchy mottled grey gray ashen'),
    unless: /\b(a cold|the cold|cold (and|with) (a )?(runny|cough|sniffles|snot))\b/,
  },
];

/** Unresponsive-person cues: collapse, unconsciousness, no breathing or pulse, cannot be woken. */
export const UNRESPONSIVE_CUES: readonly CueSpec[] = [
  {
    id: 'unr.noresponse',
    re: `(?:is not|not|will not|would not|cannot|does not|is barely|barely|no longer|stopped) (?:responding|respond|responsive|reacting|react)|unresponsive|(?:will not|would not|cannot|could not|does not|is not|not) (?:wake|waking|wake up|be woken|be roused|rouse|come round|come around|coming round|coming around)|(?:cannot|could not|unable to) (?:wake|rouse)${gap(2)} (?:him|her|them|up)|(?:hard|difficult|impossible) to wake|(?:cannot|could not|unable to) get (?:him|her|them|my [a-z]+|mum|mom|dad) to (?:respond|react|wake|wake up|answer me|open (?:his|her|their) eyes)`,
    stems: words(
      'responding respond responsive reacting react unresponsive wake waking woken roused rouse round around answer eyes',
    ),
    unless:
      /\b(texts?|messages?|calls?|emails?|phone|app|apps|screen|laptop|computer|website|site|browser|tablet|tv|server|system|program|game|keyboard|mouse|treatment|medication|antibiotics|therapy|for school|for work|on time|early|before (noon|lunch|\d+)|lazy|in the mornings?|weekends?)\b/,
  },
  {
    // "grab the defibrillator", "get the AED": a defibrillator fetched or used now (ADR 0426; "someone is running for
    // the defibrillator" is still suppressed by the context checks)
    id: 'unr.defib',
    re: `(?:running for|ran for|run for|gone for|went for|getting|get|grab|grabbing|fetch|fetching|bringing|brought|using|used|use|attaching|attached|put) (?:the|a|an|their|our) (?:defib|defibrillator|aed)`,
    stems: words('defib defibrillator aed'),
    unless:
      /\b(training|course|class|drill|exam|where is|where are|how (do|does|to)|register|buy|install|fundrais\w*)\b/,
  },
  {
    id: 'unr.unconscious',
    re: 'unconscious(?! (?:bias|mind|level|thoughts?|process|processes|desires?|memory|memories))|knocked out|out cold|lifeless',
    stems: words('unconscious knocked cold lifeless'),
    unless:
      /\b(boxing|ufc|fight night|knocked out (of|the) (competition|tournament|cup|round)|knockout round)\b/,
  },
  {
    id: 'unr.collapse',
    re: `(?:he|she|they|someone|somebody|i|we|(?:my|our|a|the) [a-z]+(?: [a-z]+)?|mum|mom|dad)(?: just| suddenly| has| have)? (?:collapsed|keeled over|dropped to the floor|fell to the floor)(?! (?:the|a|an|two|three|them|it|into|all|our|their|his|her|my|these|those)\\b)`,
    stems: words('collapsed keeled dropped fell'),
    unless:
      /\b(couch|sofa|bed|nap|napped|asleep|sleep|tent|market|company|bridge|building|roof|business|economy|stock|deal|plan|plans|lung|marathon|exhausted|laughing)\b/,
  },
  {
    id: 'unr.nobreath',
    re: `(?:is not|not|stopped|has stopped|is barely|barely|no longer) breathing(?! (?:through|in through|out|properly through))|(?:do not|does not|not) think (?:he|she|they|it) (?:is|are) breathing|no pulse|(?:cannot|could not) (?:find|feel) (?:a |his |her |their |any )?pulse|heart${gap(1)} (?:has )?stopped(?: beating)?`,
    stems: words('breathing pulse heart'),
    unless: /\b(when i (saw|heard|read|got)|for a (second|moment)|skipped|bill|exam|results|news)\b/,
    firm: true,
  },
  {
    // ADR 0428: "lying on the road not moving or talking", "slumped in the car, motionless"
    id: 'unr.still',
    re: `(?:lying|lay|laid|slumped|sprawled)${gap(5)} (?:not moving|motionless)|not (?:moving|responding) (?:or|and|nor) (?:talking|speaking|responding|breathing|waking)`,
    stems: words('lying lay laid slumped sprawled moving responding'),
    unless: /\b(sofa|couch|bed|all day|lazy|hangover|hungover|sunbathing|beach|yoga|lol)\b/,
  },
  {
    id: 'unr.passedout',
    re: 'passed out|blacked out|fainted|collapsed',
    stems: words('passed blacked fainted collapsed'),
  },
];
