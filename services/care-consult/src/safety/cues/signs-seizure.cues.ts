import { gap, words, type CueSpec } from '../red-flag-cue';

// General signs (fever, headache, vomiting, drowsiness, vision) that several rules combine, and seizure cues.

const NUMBER_WORD = '(?:\\d+|two|three|four|five|six|seven|eight|nine|ten|several|fifteen|twenty)';

/** Signs shared by several rules; none fires on its own. */
export const SHARED_SIGN_CUES: readonly CueSpec[] = [
  {
    id: 'sign.fever',
    re: 'fever|feverish|febrile|high temp|temperature|temp(?: of| is| was)? (?:3[89]|4[0-2])(?:\\.\\d)?|(?:3[89]|4[0-2])(?:\\.\\d)?(?: c| degrees| deg)|burning up|10[1-5](?:\\.\\d)? (?:f|degrees)',
    stems: words('fever febri temp temperature burning #num'),
    unless: /\b(room temperature|body temperature chart|thermostat|oven|weather)\b/,
  },
  {
    id: 'sign.headache_severe',
    re: `(?:worst|severe|terrible|raging|splitting|excruciating|awful|really bad|bad|agonising|agonizing|horrible|unbearable|thunderclap|pounding|blinding)${gap(2)} headache`,
    stems: words('headache'),
  },
  {
    id: 'sign.headache',
    re: 'headache|head ache|head hurts|head is pounding|migraine',
    stems: words('headache head migraine'),
  },
  {
    id: 'sign.vomit',
    re: 'vomiting|vomited|vomit|throwing up|threw up|being sick|puking',
    stems: words('vomit throwing threw sick puking'),
  },
  {
    id: 'sign.drowsy',
    re: '(?:very |really |so |extremely )?(?:drowsy|lethargic|floppy)|(?:very|really|so|extremely|unusually) sleepy|(?:hard|difficult) to wake|not waking properly',
    stems: words('drowsy lethargic floppy sleepy wake waking'),
  },
  {
    id: 'sign.vision',
    re: `blurred|blurry|blurring|(?:seeing|see) (?:spots|stars|flashes|flashing lights|double|sparkles)|flashing lights|spots in (?:my |her )?(?:vision|eyes)|vision${gap(2)} (?:blurry|blurred|funny|weird|strange|going|gone|double)|double vision`,
    stems: words('blurred blurry blurring spots stars flashes flashing vision double sparkles'),
  },
  {
    id: 'sign.swollen_body',
    re: `swollen (?:face|hands|feet|ankles|legs)|(?:face|hands|feet|ankles|legs)${gap(2)} (?:swollen|swelling|puffy|puffed up|swelled)`,
    stems: words('swollen swelling puffy puffed swelled'),
  },
  { id: 'sign.floor', re: '(?:on|to) the (?:floor|ground)', stems: words('floor ground') },
  {
    id: 'sign.spreading',
    re: 'spreading|getting bigger|spreads|spread',
    stems: words('spreading spreads spread bigger'),
  },
];

/** Seizure cues; "seizure of assets", "seized up", "having a fit about the mess" are look-alikes. */
export const SEIZURE_CUES: readonly CueSpec[] = [
  {
    id: 'sz.claim',
    re: `having (?:a |another |multiple |more |his |her )?(?:[a-z]+ )?(?:seizures?|fits?|convulsions?)`,
    stems: words('seizure seizures fit fits convulsion convulsions'),
    unless:
      /\bfits? (about|over|because|when|if|at)\b|\bfit of (rage|anger|laughter|giggles|jealousy|pique)\b/,
  },
  {
    id: 'sz.active',
    re: `seizing(?=$| [/|,]| (?:and|again|now|right|for|still|on|in|non|nonstop|badly|uncontrollably|violently|everywhere|all|over)\\b)|convulsing|convulsions|(?:is|are|am|keeps?|started|been|now|still) fitting(?! (?:in|into|the|a|an|well|nicely|perfectly|for|out|his|her|my|their|new|together))|(?:not|cannot) stop (?:seizing|fitting|convulsing|jerking)`,
    stems: words('seizing convulsing convulsions fitting jerking'),
  },
  {
    id: 'sz.duration',
    re: `(?:seizure|seizures|fit|fitting|seizing|convulsing)${gap(4)} (?:for|lasting|lasted|over|more than|longer than)${gap(2)} ${NUMBER_WORD} (?:minutes|mins|min)|(?:seizure|fit|seizing|fitting|convulsing)${gap(2)} (?:will not|would not|is not|does not|has not|not|cannot) (?:stop|stopping|ending|end)|seizures?${gap(1)} (?:one after another|back to back|keep coming|keeps coming)`,
    stems: words('seizure seizures fit fitting seizing convulsing'),
  },
  {
    id: 'sz.first',
    re: '(?:just|has just|have just|only just) (?:had|has) (?:a |his |her |my |their )?(?:first |1st )?(?:seizure|fit|convulsion)',
    stems: words('seizure fit convulsion'),
  },
  {
    id: 'sz.now',
    re: `seizures?${gap(2)} (?:right now|happening|at the moment)|seizure now|(?<=^|\\| )(?:seizure|seizing)(?=$| \\|)`,
    stems: words('seizure seizures seizing'),
  },
  {
    id: 'sz.jerk',
    re: 'jerking|thrashing|shaking all over|shaking uncontrollably|shaking violently|twitching all over|stiffened|went stiff|stiff and jerky|jerky movements',
    stems: words('jerking thrashing shaking twitching stiffened stiff jerky'),
  },
  {
    id: 'sz.shake',
    re: 'shaking|shakes|twitching|jerking|trembling',
    stems: words('shaking shakes twitching jerking trembling'),
  },
  {
    id: 'sz.eyes',
    re: `eyes${gap(2)} (?:rolled|rolling|rolled back|rolling back|rolled up|glazed)`,
    stems: words('eyes'),
  },
  {
    id: 'sz.foam',
    re: '(?:foaming|frothing) at the mouth',
    stems: words('foaming frothing'),
    // "foaming at the mouth about the referee's decision": anger, not a seizure (ADR 0418)
    unless: /\b(?:foaming|frothing) at the mouth (?:about|over|at|with (?:rage|anger|fury))\b/,
  },
];
