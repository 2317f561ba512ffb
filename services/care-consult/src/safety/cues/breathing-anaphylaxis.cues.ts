import { BLUE_LOOKALIKE, gap, words, type CueSpec } from '../red-flag-cue';

// Breathing difficulty and anaphylaxis cues.

const BREATH_LOOKALIKE =
  /\b(nose|nostril|nostrils|stuffy|congested|congestion|jeans|dress|corset|trousers|pants|laugh\w*|funny|hilarious|without you|room to|lyrics|song|lol)\b/;

/** Breathing difficulty cues; look-alikes (blocked nose, tight jeans, laughing) are discarded. */
export const BREATHING_CUES: readonly CueSpec[] = [
  {
    id: 'breath.cannot',
    re: '(?:cannot|can barely|can hardly|unable to|not able to|not been able to|could not|could barely|barely able to|struggling to|struggle to|hard to|difficult to|impossible to|fighting to) (?:breathe|breath|get (?:any |enough )?air|get a breath|get (?:my|his|her) breath)|(?:i am|he is|she is|they are|we are|baby is|i feel like i am|feels like i am) suffocating',
    stems: words('breath air suffocating'),
    unless: BREATH_LOOKALIKE,
    jokeProne: true,
  },
  {
    id: 'breath.difficulty',
    re: `(?:difficulty|trouble|problems?|struggling|struggle|a hard time|hard time|laboured|labored|distress) (?:with )?breathing|breathing${gap(2)} (?:is |feels |seems )?(?:hard|difficult|laboured|labored|really difficult|very difficult|a struggle|noisy|rattly|rattling)`,
    stems: words('breath'),
    unless: BREATH_LOOKALIKE,
  },
  {
    id: 'breath.gasp',
    re: '(?:gasping|fighting|struggling|desperate) for (?:air|breath|breathe)|gasping',
    stems: words('gasping gasp'),
  },
  {
    id: 'breath.choking',
    re: 'choking(?! (?:back|up|on (?:my|his|her|their) (?:words|tears|laughter)))',
    stems: words('choking'),
    // "choking on all these forms", "choking on the amount of emails": an overload, not an airway (ADR 0418)
    unless:
      /\b(words|tears|laughter|laughing|lol)\b|\bchoking on (?:(?:the (?:amount|number|volume|pile) of|all (?:the|these|those|this|that|my)|so many|so much|my|these|those|this|the) )?(?:e ?mails?|inbox|work|workload|paperwork|admin|forms|deadlines|bills|debts?|messages|notifications|assignments|homework|red tape|bureaucracy|jargon)\b/,
  },
  {
    id: 'breath.blue',
    re: `(?:lips|lip|face|skin|fingers|fingertips|tongue)${gap(2)} (?:turning |going |gone |turned |are |is |look |looks )?(?:blue|bluish|blueish|grey|gray|purple)|(?:turning|going|gone|turned) (?:blue|grey|gray|purple)`,
    stems: words('blue bluish blueish grey gray purple'),
    unless: BLUE_LOOKALIKE,
  },
  {
    id: 'breath.severe_sob',
    re: `(?:so|very|really|extremely|severely|badly|too) (?:short of breath|breathless|out of breath)|short of breath${gap(3)} (?:cannot|can barely|can hardly|unable to) (?:talk|speak|finish|walk|move)|short of breath (?:at rest|sitting still|lying down|even resting)|cannot catch (?:my|his|her|their) breath${gap(2)} (?:at all|even|sitting|resting|lying)`,
    stems: words('breath breathless'),
  },
  {
    id: 'breath.talk',
    re: `(?:cannot|can barely|can hardly|unable to|barely able to|not able to) (?:talk|speak|finish|say)${gap(2)} (?:in )?(?:full |whole |complete )?(?:sentences?|a sentence)`,
    stems: words('sentence sentences'),
  },
  {
    id: 'breath.talk_weak',
    re: '(?:can barely|can hardly|barely able to|struggling to) (?:talk|speak)',
    stems: words('talk speak'),
  },
  {
    id: 'breath.asthma',
    re: `(?:having|in the middle of|mid) (?:an? )?(?:[a-z]+ ){0,2}asthma attack|(?:bad|severe|serious|major|big|massive|terrible|awful) asthma attack|asthma${gap(2)} (?:is |feels )?(?:really bad|so bad|very bad|terrible|awful|getting worse|out of control)`,
    stems: words('asthma'),
  },
  {
    id: 'breath.inhaler',
    re: `inhaler${gap(2)} (?:is not|not|does not|did not|is no|are not|will not)${gap(1)} (?:working|helping|help|work|doing anything|making a difference)|inhaler${gap(2)} (?:does|did|is doing) nothing`,
    stems: words('inhaler'),
  },
  { id: 'breath.wheeze', re: 'wheez[a-z]*', stems: words('wheez') },
];

/** Anaphylaxis cues: airway swelling, adrenaline use, or an allergen exposure with a reaction. */
export const ANAPHYLAXIS_CUES: readonly CueSpec[] = [
  {
    id: 'ana.throat_close',
    re: `throat${gap(4)} (?:closing|closes|closed|swelling|swollen|swells|swelled|shutting|shut|constricting|constricted|narrowing)|(?:swollen|swelling|closing) throat`,
    stems: words('throat'),
    unless: /\b(tonsil\w*|strep|glands?|sore throat)\b/,
  },
  {
    id: 'ana.throat_tight',
    re: `throat${gap(3)} (?:tight|tightening|tighter|itchy|tingling)`,
    stems: words('throat'),
  },
  {
    id: 'ana.tongue',
    re: `tongue${gap(3)} (?:swelling|swollen|swelled|swells|puffing|puffy|thick|huge)|(?:swollen|swelling|swelled) tongue`,
    stems: words('tongue'),
  },
  {
    id: 'ana.swelling',
    re: `(?:face|lips|lip|mouth|eyes|eye|eyelids|cheeks)(?: and (?:face|lips|lip|mouth|eyes|tongue))?${gap(3)} (?:swelling|swollen|swelled|swell|puffing|puffy|puffed|blowing up|blown up|ballooning)|(?:swollen|swelling|puffy) (?:face|lips|lip|mouth|eyes)`,
    stems: words('face lips lip mouth eyes eye eyelids cheeks swollen swelling puffy'),
  },
  {
    id: 'ana.hives',
    re: `hives|welts|(?:rash|itching|itchy)${gap(1)} all over|covered in${gap(2)} (?:rash|hives|spots|welts)`,
    stems: words('hives welts rash itchy itching covered'),
  },
  {
    id: 'ana.exposure',
    re: `(?:ate|eaten|eating|had|after|ingested|bit into|tasted|swallowed|touched)${gap(4)} (?:peanut|peanuts|nut|nuts|cashew|cashews|almond|almonds|walnut|walnuts|pistachio|pistachios|shellfish|shrimp|prawn|prawns|crab|lobster|mussels|sesame|satay|egg|eggs|milk|dairy|kiwi)|(?:stung|bitten) by${gap(1)} (?:bee|wasp|hornet|jellyfish|insect|something)|(?:bee|wasp|hornet|insect) sting|got stung|(?:after|since) (?:taking|i took|he took|she took|starting|being given|getting)${gap(2)} (?:penicillin|amoxicillin|antibiotic|antibiotics|ibuprofen|aspirin|contrast|injection|vaccine|medicine|medication)`,
    stems: words(
      'peanut nut nuts cashew almond walnut pistachio shellfish shrimp prawn prawns crab lobster mussels sesame satay egg eggs milk dairy kiwi stung bitten sting penicillin amoxicillin antibiotic ibuprofen aspirin contrast injection vaccine medicine medication',
    ),
  },
  { id: 'ana.allergic', re: 'allergic|allergy|allergies|anaphyla[a-z]*', stems: words('allerg anaph') },
  {
    id: 'ana.severe',
    re: `(?:severe|bad|serious|massive|major|big|really bad|huge|violent) (?:allergic reaction|reaction)|(?:having|going into|gone into|go into|in|into) (?:an? )?anaphyla[a-z]*(?: shock| reaction)?|anaphylactic (?:shock|reaction)|(?:think|sure|worried|maybe|probably)${gap(3)} anaphyla[a-z]*|anaphyla[a-z]*${gap(1)} (?:i think|right now|now|happening)`,
    stems: words('reaction anaph'),
  },
  {
    id: 'ana.epipen',
    re: `(?:used|use|using|gave|give|giving|injected|inject|injecting|jabbed|jab|had to use|administered|administer)${gap(3)} (?:epipen|epipens|adrenaline|epinephrine|auto injector|autoinjector|jext|emerade)|(?:epipen|adrenaline pen)${gap(2)} (?:right now|minutes ago|mins ago)|where is${gap(2)} epipen`,
    stems: words('epipen adrenaline epinephrine injector autoinjector jext emerade'),
  },
  {
    id: 'ana.swallow',
    re: 'cannot swallow|hard to swallow|(?:trouble|difficulty) swallowing',
    stems: words('swallow swallowing'),
  },
];
