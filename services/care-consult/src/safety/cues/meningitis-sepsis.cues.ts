import { gap, words, type CueSpec } from '../red-flag-cue';

// Meningitis and sepsis cues.

/** Meningitis cues: non-blanching rash, stiff neck with a companion sign, or a bulging fontanelle. */
export const MENINGITIS_CUES: readonly CueSpec[] = [
  {
    id: 'men.rash',
    re: `(?:rash|rashes|spots|marks|dots|blotches|bruises)${gap(5)} (?:not|does not|did not|will not|would not|do not|is not|are not|has not|have not|cannot|never) (?:fade|fading|go away|disappear|blanch|blanching|turn white|go white|go pale)|(?:non|not) blanching|nonblanching|glass test${gap(3)} (?:not|did not|does not|failed|positive)`,
    stems: words('rash rashes spots marks dots blotches bruises blanching nonblanching glass'),
  },
  {
    id: 'men.purple',
    re: '(?:purple|purplish|pinprick|pin prick|petechial|bruise like|dark red) (?:rash|spots|dots|marks|mark|blotches|blotch|patch|patches)|petechiae',
    stems: words('purple purplish pinprick pin petechial petechiae bruise dark'),
  },
  {
    id: 'men.stiff',
    re: `(?:stiff|rigid) neck|neck${gap(3)} (?:stiff|stiffness|rigid)|cannot (?:bend|move|turn|flex|touch|put) (?:my|his|her|their) (?:neck|head|chin)|chin (?:to|on|onto) (?:my|his|her|their) chest`,
    stems: words('neck chin'),
  },
  {
    id: 'men.photo',
    re: `(?:light|lights|bright light|bright lights|sunlight)${gap(2)} (?:hurts|hurt|hurting|painful|bothers|bothering|unbearable)|cannot (?:stand|bear|look at|tolerate) (?:the |any )?(?:bright )?(?:light|lights)|photophobia|sensitive to light|light sensitive|light sensitivity`,
    stems: words('light lights sunlight photophobia sensitive'),
  },
  {
    id: 'men.claim',
    re: 'meningitis|meningococcal|meningococcus',
    stems: words('meningitis meningococcal meningococcus'),
    unless: /\b(vaccine|vaccination|vaccinated|jab|shot|booster|immuni[sz]ation)\b/,
  },
  {
    id: 'men.fontanelle',
    re: `(?:bulging|swollen|raised|tense|bulgy) (?:soft spot|fontanelle|fontanel)|(?:soft spot|fontanelle|fontanel)${gap(2)} (?:bulging|swollen|raised|tense|bulgy|sticking out|puffed)`,
    stems: words('fontanelle fontanel soft'),
  },
];

/** Sepsis cues: explicit claims, or infection/fever with a red-flag sign from the sepsis checklists. */
export const SEPSIS_CUES: readonly CueSpec[] = [
  {
    id: 'sep.claim',
    re: 'sepsis|septic(?! tank| tanks| system| field| arthritis)|septicaemia|septicemia|blood poisoning',
    stems: words('sepsis septic septicaemia septicemia poisoning'),
  },
  {
    id: 'sep.infection',
    re: `infection|infected|uti|pneumonia|cellulitis|abscess|(?:the |my |his |her |a )wound|after (?:my|his|her|the) (?:operation|surgery|procedure|c section)|post op|flu|covid`,
    stems: words(
      'infection infected uti pneumonia cellulitis abscess wound operation surgery procedure section post flu covid',
    ),
  },
  {
    id: 'sep.sign',
    re: `mottled|blotchy|discoloured|discolored|(?:skin|lips)${gap(2)} (?:blue|bluish|grey|gray|pale|ashen|mottled|blotchy)|(?:not|has not|have not|had not|did not|not been able to) (?:passed|pass|peed|pee|urinated|urinate|weed|wee)|no (?:urine|pee|wee)|(?:shivering|shaking|shakes|rigors)${gap(1)} (?:uncontrollably|violently|so much|like crazy)|uncontrollabl[a-z]* (?:shivering|shaking)|(?:feel|feels|feeling|felt) like (?:i am|he is|she is|they are|i will|i might) (?:going to die|dying|die)|(?:heart|pulse)${gap(2)} (?:racing|pounding|very fast|really fast|so fast)|breathing${gap(2)} (?:really |very |so )?(?:fast|quickly|rapidly)|(?:very|really|extremely|so|incredibly) (?:drowsy|unwell|ill)|cold and clammy|red streaks?|streaks${gap(2)} spreading|slurred speech`,
    stems: words(
      'mottled blotchy discoloured discolored skin lips passed pass peed pee urinated urinate weed wee urine shivering shaking shakes rigors uncontrollably uncontrollable feel feels feeling felt heart pulse breathing drowsy unwell ill clammy streak streaks slurred',
    ),
  },
  {
    id: 'sep.chemo',
    re: 'chemo|chemotherapy|neutropeni[a-z]*|immunosuppress[a-z]*|transplant',
    stems: words('chemo chemotherapy neutropenia neutropenic immunosuppressed transplant'),
  },
];
