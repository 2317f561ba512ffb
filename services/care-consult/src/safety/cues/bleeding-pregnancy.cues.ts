import { gap, words, type CueSpec } from '../red-flag-cue';

// Severe bleeding and pregnancy emergency cues.

const BLEED = '(?:bleeding|bleed|bleeds|bled)';
const WEEKS_LEAD = '(?:i am|am|at|only|currently|she is|wife is|partner is|girlfriend is|just)';

/** Severe bleeding cues; idioms ("bleeding money", "bleeding edge") carry no intensity and never match. */
export const BLEEDING_CUES: readonly CueSpec[] = [
  {
    id: 'bleed.heavy',
    re: `${BLEED}${gap(2)} (?:heavily|badly|a lot|profusely|everywhere|loads|so much|non stop|nonstop|like crazy|really bad|really badly|so bad|uncontrollably|out|too much|like a tap)|(?:heavy|severe|massive|uncontrolled|uncontrollable|profuse|serious|major|lots of|a lot of|so much|huge amount of|loads of|tons of|pool of|large amounts? of) (?:bleeding|blood loss|blood)|(?:${BLEED}|blood|nosebleed|nose bleed)${gap(4)} (?:will not|would not|does not|cannot|is not|has not|not|never) (?:stop|stopping|stopped|slow|slowing|clot|clotting)|(?:cannot|could not|unable to|not able to|will not|would not|does not|not) (?:stop|slow) (?:the |his |her |my )?(?:bleeding|blood)|blood${gap(2)} (?:spurting|pouring|gushing|squirting|pumping|everywhere|all over|pooling)|(?:spurting|pouring|gushing|squirting|pumping|losing) (?:out )?(?:a lot of |lots of |so much )?blood|(?:coughing|vomiting|throwing|puking|spitting|bringing) (?:up )?(?:lots of |a lot of |so much )?blood|(?:cut|severed|sliced|nicked|hit) (?:an |the |my |his |her )?artery|arterial (?:bleeding|bleed|blood)|(?:bleeding|blood) from (?:an |the )?artery`,
    stems: words('bleeding bleed bleeds bled blood nosebleed artery arterial'),
    unless: /\b(period|periods|menstrual|menstruation|time of the month|money|cash|dry)\b/,
  },
  {
    id: 'bleed.soaked',
    re: `(?:soaked|soaking|soaks)${gap(3)} (?:towel|towels|bandage|bandages|cloth|shirt|dressing|dressings|pads?)`,
    stems: words('soaked soaking soaks'),
  },
  {
    id: 'bleed.any',
    re: `${BLEED}|blood|bloody`,
    stems: words('bleeding bleed bleeds bled blood bloody'),
  },
];

/** Pregnancy cues: the context (pregnant, N weeks) and the warning signs that need it. */
export const PREGNANCY_CUES: readonly CueSpec[] = [
  {
    id: 'preg.ctx',
    re: `pregnant|pregnancy|expecting (?:a baby|twins)|${WEEKS_LEAD} (?:\\d+|[a-z]+) weeks(?! old)|\\d+ weeks (?:pregnant|along|gone|gestation)|(?<=^|\\| |/ )\\d+ weeks(?! old)|trimester|my bump`,
    stems: words('pregnant pregnancy expecting weeks trimester bump'),
  },
  {
    id: 'preg.preterm',
    re: `${WEEKS_LEAD} (\\d+) weeks(?! old)|(\\d+) weeks (?:pregnant|along|gone|gestation)|(?<=^|\\| |/ )(\\d+) weeks(?! old)`,
    stems: words('weeks'),
    min: 16,
    max: 36,
  },
  {
    id: 'preg.bleed',
    re: 'bleeding|bleed|bled|blood|clots|gush|gushing|haemorrhag[a-z]*|hemorrhag[a-z]*',
    stems: words('bleeding bleed bled blood clots gush gushing haemorrhage hemorrhage'),
    unless: /\b(gums?|nose|nosebleeds?|teeth|brushing|flossing)\b/,
  },
  {
    id: 'preg.movement',
    re: `(?:baby|babies|bump|he|she|it)${gap(3)} (?:not|has not|have not|had not|stopped|no longer|is not) (?:moved|moving|kicked|kicking|move|kick)|(?:not|cannot|have not|has not|could not|do not|did not) (?:felt|feel|feeling)${gap(3)} (?:baby|babies|kicks|kick|movement|movements|move|moving)|(?:reduced|less|fewer|no|decreased) (?:fetal |foetal |baby )?(?:movements?|kicks|kicking)|(?:movements?|kicks|kicking)${gap(2)} (?:stopped|slowed|reduced|gone quiet)`,
    stems: words('move moved moving movement movements kick kicks kicked kicking'),
  },
  {
    id: 'preg.waters',
    re: `waters?${gap(2)} (?:broke|broken|breaking|gone|burst|went)|(?:broke|broken) (?:my |her )?waters?`,
    stems: words('water waters'),
  },
  {
    id: 'preg.cord',
    re: `(?:see|feel|hanging|coming|sticking)${gap(3)} (?:the )?(?:umbilical )?cord|cord${gap(2)} (?:coming out|hanging|prolapsed|is out)`,
    stems: words('cord'),
  },
  {
    id: 'preg.green',
    re: `green${gap(2)} (?:fluid|water|waters|liquid|discharge)|meconium|(?:brown|bloody) (?:fluid|waters)`,
    stems: words('green meconium brown bloody'),
  },
  {
    id: 'preg.labour',
    re: 'contractions|contracting|labou?r pains|in labou?r|going into labou?r|labou?r (?:has )?started',
    stems: words('contractions contracting labour labor'),
  },
  {
    id: 'preg.birth',
    re: `baby${gap(1)} (?:is )?(?:coming|crowning|coming out) (?:now|out|fast|right now|quickly)|crowning|(?:can see|feel) (?:the )?(?:baby is )?head|(?:giving|about to give|going to give) birth (?:now|right now|at home|in the car|here)|(?:urge|need) to push`,
    stems: words('coming crowning head birth push'),
  },
  {
    id: 'preg.pain',
    re: `(?:severe|sharp|bad|terrible|really bad|stabbing|intense|agonising|agonizing|excruciating|awful|constant)${gap(2)} (?:pain|pains|cramps|cramping|stomach ache|tummy ache|belly ache)|(?:belly|tummy|stomach|abdomen|abdominal|pelvic|bump|uterus|womb)${gap(3)} (?:pain|painful|hurts|hurting|rock hard|agony|cramping)|shoulder tip pain|pain (?:on|in) one side|one sided pain`,
    stems: words(
      'pain pains cramps cramping stomach tummy belly abdomen abdominal pelvic bump uterus womb shoulder sided',
    ),
    unless:
      /\b(heartburn|backache|back|sciatica|hip|hips|ligament|leg|legs|feet|teeth|tooth|boobs|breasts)\b/,
  },
  { id: 'preg.ectopic', re: 'ectopic', stems: words('ectopic') },
];
