import { SUBJECT_HAVING, gap, words, type CueSpec } from '../red-flag-cue';

// Stroke (FAST) and heart attack cues. Features named in a rule's single group fire alone; the others
// only count in combination (see red-flag-rules.ts).

const NOT_STROKE_OF = '(?! of)';
// A sentence that is nothing but the emergency's name ("Heart attack???") is a cry for help.
const ALONE_BEFORE = '(?<=^|\\| )';
const ALONE_AFTER = '(?=$| \\|)';

/** Stroke cues: FAST signs (face, arm, speech) plus explicit claims. */
export const STROKE_CUES: readonly CueSpec[] = [
  {
    id: 'stroke.claim',
    re: `${SUBJECT_HAVING} having (?:a |another |an )?(?:mini |minor |small )?(?:stroke|tia)${NOT_STROKE_OF}|(?:just|has just|have just) (?:had|suffered) (?:a |another |an )?(?:mini |minor )?(?:stroke|tia)${NOT_STROKE_OF}|(?:this|it|that) (?:is|could be|might be|must be|looks like|seems like|sounds like|feels like) (?:a |another )?(?:mini )?stroke${NOT_STROKE_OF}|${ALONE_BEFORE}stroke${ALONE_AFTER}`,
    stems: words('stroke tia'),
  },
  {
    id: 'stroke.face',
    re: `(?:face|mouth|smile|lip|lips|eye|eyelid|cheek)${gap(4)} (?:drooping|droopy|drooped|droop|sagging|saggy|sagged|lopsided|crooked|uneven|twisted|dropped|fallen|slumped|hanging down|hanging|pulled to one side)|(?:drooping|droopy|lopsided|crooked|sagging|uneven) (?:face|mouth|smile)|cannot (?:smile|move (?:his|her|my|their) face)(?: properly| straight)?|(?:one side|half|side) of (?:my|his|her|their|the) (?:face|mouth)${gap(3)} (?:drooping|droopy|numb|sagging|dropped|fallen|hanging|will not move|cannot move|not moving|paraly[sz]ed|frozen)`,
    stems: words('face mouth smile lip lips eye eyelid cheek droop lopsided crooked sagging uneven'),
    unless:
      /\b(tired|sleepy|botox|filler|fillers|dentist|numbing|anaesthetic|anesthetic|injection|bell s palsy|always been)\b/,
  },
  {
    id: 'stroke.oneside',
    re: `(?:numb|numbness|weak|weakness|paraly[sz]ed|paralysis|drooping|droopy|dead|heavy|tingling)${gap(2)} (?:on )?(?:one side|the left side|the right side|left side|right side)|(?:one side|left side|right side|half) of (?:my|his|her|their|the) body${gap(2)} (?:numb|weak|paraly[sz]ed|dead|heavy|not working)|(?:left|right|one) side${gap(2)} (?:went|is|feels|has gone|gone|going)${gap(1)} (?:numb|weak|limp|dead|heavy|paraly[sz]ed)`,
    stems: words('side'),
  },
  {
    id: 'stroke.speech',
    re: `(?:slurring|slurred|slurry)(?: (?:his|her|my|their))?(?: speech| words)?|speech${gap(3)} (?:slurred|slurry|garbled|jumbled|weird|strange|funny|wrong|not right|gone)|words${gap(3)} (?:wrong|jumbled|garbled|mixed up|muddled|gibberish)|(?:talking|speaking|saying) (?:funny|gibberish|jibberish|nonsense|strangely|weird|weirdly)|cannot (?:get|find) (?:my|his|her|their|the) words(?: out)?`,
    stems: words('slurr speech words talking speaking saying'),
    unless: /\b(drunk|wasted|tipsy|beers?|wine|vodka|therapist|therapy)\b/,
  },
  {
    id: 'stroke.cannot_speak',
    re: `cannot (?:speak|talk)(?: properly| clearly| right| normally| at all)?(?=$| [/|,]| and\\b)`,
    stems: words('speak talk'),
  },
  {
    id: 'stroke.arm',
    re: `cannot (?:lift|raise|move|feel|hold up|hold|grip with|use) (?:my|his|her|their|the|one|either|both)?(?: left| right)? ?(?:arm|arms|hand|leg|legs|side)|(?:arm|arms|hand|leg|side)${gap(3)} (?:weak|limp|dead|heavy|numb|paraly[sz]ed|floppy|useless|not working|gave way)`,
    stems: words('arm arms hand leg legs side'),
  },
  {
    id: 'stroke.sudden',
    re: 'suddenly|sudden|out of nowhere|all of a sudden|out of the blue|came on fast',
    stems: words('sudden nowhere blue fast'),
  },
  {
    id: 'stroke.vision',
    re: `(?:cannot see|lost (?:the )?vision|lost (?:my |his |her )?sight|blind|vision${gap(2)} (?:gone|went|black|dark|lost))${gap(3)} (?:one|left|right) eye|(?:sudden|suddenly)${gap(2)} (?:cannot see|blind|lost (?:my |his |her )?vision)`,
    stems: words('see vision sight blind'),
  },
  {
    id: 'sign.confused',
    re: `confused(?! (?:about|by|with|why|how|what|as|over|which|whether|if|because|me))|not making (?:any )?sense|disorient[a-z]*`,
    stems: words('confu sense disor'),
  },
];

/** Heart attack cues: claims, severe chest pain, and chest pain plus a companion sign. */
export const HEART_CUES: readonly CueSpec[] = [
  {
    id: 'heart.claim',
    re: `${SUBJECT_HAVING} having (?:a |another )?(?:heart attack|cardiac arrest|cardiac event)|(?:going|gone) into cardiac arrest|in cardiac arrest|(?:just|has just) had (?:a |another )?heart attack|(?:this|it|that) (?:is|could be|might be|must be|feels like|looks like|seems like) (?:a |another )?heart attack|heart attack(?: symptoms)? (?:right now|now|happening)|${ALONE_BEFORE}heart attack${ALONE_AFTER}`,
    stems: words('heart cardiac'),
    unless: /\bheart attack (over|about|because of|at) (this|that|the|my|these|those|his|her)\b/,
    jokeProne: true,
  },
  {
    id: 'heart.severe',
    re: `(?:crushing|squeezing|severe|intense|excruciating|terrible|unbearable|stabbing|heavy|bad|really bad|worst|awful|tearing)${gap(2)} (?:chest pain|chest pains|(?:pain|pressure|feeling|tightness|ache) in (?:my|his|her|the|their) chest|chest pressure)|chest${gap(4)} (?:crushed|squeezed|crushing|squeezing|being crushed|being squeezed|in a vice)|(?:elephant|weight|someone|something|a brick|a ton|ton of bricks)${gap(2)} (?:sitting|standing|pressing|crushing|on) (?:on )?(?:my|his|her|their) chest|(?:clutching|grabbing|gripping) (?:at )?(?:his|her|my|their) chest|chest${gap(1)} (?:hurts|is hurting|pain|pains|aches)${gap(1)} (?:so bad|so badly|really bad|really badly|so much|like hell|terribly)`,
    stems: words('chest'),
    jokeProne: true,
  },
  {
    id: 'heart.chest',
    re: `chest (?:pain|pains|hurts|hurting|is hurting|has been hurting|pressure|discomfort|ache|aches|aching|feels heavy|is heavy|heaviness)|(?:pain|pressure|ache|discomfort|heaviness|squeezing|squeeze|crushing|tightness|tight feeling|pressing) in (?:my|his|her|the|their) chest|(?:painful|sore|heavy|aching|tight) chest|chest${gap(2)} (?:hurts|hurting|aching|painful|sore|tight|tightness)|(?:band|pressure|tightness|weight) (?:around|across|on) (?:my|his|her|their) chest`,
    stems: words('chest'),
  },
  {
    id: 'heart.radiation',
    re: `(?:pain|hurts|hurting|ache|aching|spreading|spreads|spread|radiating|radiates|going|goes|moving|shooting|travelling|traveling)${gap(3)} (?:down|into|to|up|through|in)${gap(2)} (?:arm|arms|jaw|neck|back|shoulder|shoulders)|(?:arm|jaw)${gap(2)} (?:hurts|aches|aching|pain|tingling|tingles|tingly|numb|hurt)|(?:pain|ache|tingling|numbness) in (?:my|his|her|their) (?:left )?(?:arm|jaw)|chest and (?:left )?(?:arm|jaw)`,
    stems: words('arm arms jaw neck back shoulder'),
  },
  {
    id: 'heart.sweat',
    re: 'sweating|sweaty|sweats|clammy|drenched|cold sweat|grey|gray|ashen',
    stems: words('sweat clammy drenched grey gray ashen'),
    unless: /\b(heat|hot weather|gym|workout|running|sauna|hot flush\w*|hot flash\w*|menopause)\b/,
  },
  {
    id: 'sign.nausea',
    re: '(?:feel|feeling|felt|am|is) (?:sick|nauseous|queasy)|nausea|nauseous|throwing up|vomiting|vomited|being sick|puking|threw up',
    stems: words('sick nause throwing vomit puking threw queasy'),
  },
  {
    id: 'sign.faint',
    re: 'dizzy|light headed|lightheaded|faint|fainting|going to pass out|about to pass out|passing out',
    stems: words('dizzy light lightheaded faint pass passing'),
  },
  {
    id: 'sign.breathless',
    re: 'short of breath|shortness of breath|breathless|out of breath|cannot catch (?:my|his|her|their) breath|winded',
    stems: words('breath winded'),
  },
];
