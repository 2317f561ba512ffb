import { gap, words, type CueSpec } from '../red-flag-cue';

// Overdose and poisoning cues.

const DRUGS =
  '(?:pills|tablets|tabs|capsules|caps|meds|medication|medicines|paracetamol|tylenol|acetaminophen|ibuprofen|advil|nurofen|aspirin|xanax|valium|diazepam|oxys?|oxycodone|codeine|tramadol|morphine|sleeping pills|sleeping tablets|antidepressants|sertraline|citalopram|fluoxetine|painkillers|benzos|opioids|insulin|methadone|fentanyl|heroin|lithium)';
const DRUG_STEMS = words(
  'pills tablets tabs capsules caps meds medication medicines paracetamol tylenol acetaminophen ibuprofen advil nurofen aspirin xanax valium diazepam oxy oxys oxycodone codeine tramadol morphine sleeping antidepressants sertraline citalopram fluoxetine painkillers benzos opioids insulin methadone fentanyl heroin lithium',
);
const TOOK =
  '(?:took|taken|swallowed|ate|downed|popped|drank|had|taking|necked|injected|gave (?:him|her|them))';
// "going to overdose" is intent (suicidal_intent), not an overdose that has happened.
const NOT_PLANNED =
  '(?<!(?:going to|want to|plan to|planning to|about to|will|might|thinking about|thinking of|how to) )';
const NON_DRUG_OVERDOSE =
  /\boverdos\w* on (netflix|tv|television|sugar|chocolate|sweets|candy|cake|cookies|christmas|cuteness|love|gaming|games|youtube|tiktok|social media|coffee|sun|sunshine|carbs|pizza|drama|work|memes|music|anime|the news|news|exercise|cardio|shopping|puns|cheese|caffeine)\b/;

/** Overdose and poisoning cues: large counts, whole packs, household poisons, carbon monoxide. */
export const OVERDOSE_CUES: readonly CueSpec[] = [
  {
    id: 'od.word',
    re: `${NOT_PLANNED}(?:overdose|overdosed|overdosing|overdoses)|(?:took|taken) (?:an |a )?od`,
    stems: words('overdose overdosed overdosing od'),
    unless: NON_DRUG_OVERDOSE,
  },
  {
    id: 'od.count',
    re: `(?:took|taken|take|swallowed|swallow|ate|had|downed|popped|taking|injected|drank|necked)(?: like| about| around| maybe| over| nearly| almost| at least| probably)? (\\d+|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|twenty|thirty|forty|fifty|sixty|seventy|a hundred|a dozen|dozens|two dozen)(?! (?:mg|ml|mcg|g|iu|grams?|milligrams?|units?|percent|minutes|mins|hours|days|years|weeks|times|am|pm)\\b)${gap(3)} ${DRUGS}`,
    stems: DRUG_STEMS,
    min: 8,
    firm: true,
  },
  {
    id: 'od.bulk',
    re: `${TOOK} (?:a |the |an )?(?:whole|entire|full) (?:pack|packet|bottle|box|strip|blister|sheet|tub|jar|container|pot)|${TOOK} (?:\\d+|two|three|four|five|several|multiple|a few) (?:boxes|packs|packets|bottles|strips|blisters|sheets)|${TOOK} (?:all|all of) (?:my|his|her|the|their|mums|moms|dads)${gap(1)} ${DRUGS}|${TOOK} (?:too many|way too many|loads of|lots of|a lot of|a handful of|handful of|handfuls of|a bunch of|a load of|too much|way too much)${gap(2)} ${DRUGS}`,
    stems: words(
      'boxes packs packets bottles strips blisters sheets whole entire full all many much loads lots lot handful handfuls bunch load',
    ),
    firm: true,
  },
  {
    // "swallowed the lot 20 min ago": everything there was of something, taken (not firm: what was taken is unnamed)
    id: 'od.lot',
    re: `${NOT_PLANNED}(?:took|taken|swallowed|downed|popped|necked) (?:the|the whole|the entire) lot\\b(?! of\\b)`,
    stems: words('lot'),
  },
  {
    id: 'od.child',
    re: `(?:son|daughter|toddler|baby|child|kid|boy|girl|grandson|granddaughter|\\d+ (?:year|yr|month) old)${gap(2)} (?:swallowed|ate|eaten|got into|drank|took|chewed|licked)${gap(5)} (?:${DRUGS}|vitamins|gummies|edibles|cannabis|iron tablets)`,
    stems: [...DRUG_STEMS, ...words('vitamins gummies edibles cannabis')],
  },
  {
    id: 'od.poison',
    re: `(?:drank|drunk|drink|swallowed|ate|eaten|ingested|got into|licked|sipped|inhaled|breathed in|chewed|bit into)${gap(3)} (?:bleach|antifreeze|anti freeze|drain cleaner|detergent|laundry (?:pod|pods|capsule|capsules|tablet|liquid)|tide pods?|dishwasher (?:tablet|tablets|pod|pods|liquid)|pesticide|weed killer|weedkiller|rat poison|slug pellets|poison|lighter fluid|petrol|gasoline|kerosene|paraffin|paint thinner|white spirit|cleaning (?:product|products|fluid|spray|liquid)|oven cleaner|toilet cleaner|essential oils?|e liquid|vape (?:juice|liquid)|nicotine (?:liquid|juice)|methanol|ethylene glycol|screenwash|window cleaner|ammonia)`,
    stems: words(
      'bleach antifreeze anti drain detergent laundry tide dishwasher pesticide weed weedkiller rat slug poison lighter petrol gasoline kerosene paraffin paint white cleaning oven toilet essential liquid vape nicotine methanol ethylene screenwash window ammonia',
    ),
  },
  {
    id: 'od.co',
    re: `carbon monoxide|co alarm|(?:being|been|got|was|were|getting|are|am|is) poisoned|(?:i|he|she|we|they) (?:think|believe)${gap(3)} poisoned`,
    stems: words('carbon monoxide alarm poisoned'),
  },
  {
    id: 'od.wild',
    re: '(?:wild|poisonous|toxic|strange|unknown|random|foraged) (?:mushrooms|mushroom|berries|toadstools|toadstool|plants|plant|fungi|fungus)|toadstools?',
    stems: words('mushrooms mushroom berries toadstools toadstool plants plant fungi fungus'),
  },
  {
    id: 'od.narcan',
    re: `(?:gave|give|giving|used|using|administered|needs)${gap(2)} (?:narcan|naloxone)`,
    stems: words('narcan naloxone'),
  },
];
