/**
 * The animal signal of the red-flag screen (ADR 0428): the user side of the conversation is about a pet or another
 * animal ("my cat is having a seizure", "the dog's paw is bleeding a lot") and about no person at all. The screen's
 * emergency advice (call the emergency number, go to an emergency department) is for people; an animal in danger
 * needs a vet, which the consultation can say. Such a conversation is answered, not refused.
 *
 * Deliberately narrow, because a missed emergency costs more than a needless refusal. The conversation counts as
 * about an animal only when:
 * - the latest message names an animal (cat, dog, puppy, rabbit, horse, ...) and so does each of the earlier turns
 *   screened with it (the last two);
 * - no turn names a person who could be the one in danger: "I", "me", "we", a relative, a friend, a child, an age
 *   ("my 3 yo"), "someone", a body part that is "my" or "our" ("dog bit my arm"). Pronouns "he", "she", "it" and
 *   "they" are allowed, since people write them for their animals;
 * - the only first person is in a question to us about what to do ("what do I do", "should I take him to the vet",
 *   "is that bad").
 * A self-correction ("my dog... no sorry, my son drank lamp oil") names a person and so is screened as always.
 */

// Animals people keep, not food ("fish", "chicken" and "cow's milk" are meals more often than patients).
const ANIMAL_WORDS =
  '(?:cats?|kitt(?:y|ies|en|ens)|dogs?|pupp(?:y|ies)|pups?|rabbits?|bunn(?:y|ies)|hamsters?|guinea pigs?|gerbils?|ferrets?|horses?|pon(?:y|ies)|budgies?|parrots?|cockatiels?|tortoises?|turtles?|lizards?|geckos?|snakes?|goldfish|rats?|mice|pets?)';
const ANIMAL = new RegExp(`\\b${ANIMAL_WORDS}\\b`);
// The animal is the subject the message opens with: "my cat is ...", "the dog's paw ...", "cat drank ...". A message
// that opens otherwise ("bitten by the dog", "a bee stung my dog") is screened as always.
const OPENS_WITH_ANIMAL = new RegExp(
  `^(?:(?:my|our|the|his|her|their|a|an|this|that)\\s+)?(?:(?:old|new|young|little|big|poor|pet|elderly|senior|sick|rescue|puppy|baby)\\s+)?${ANIMAL_WORDS}\\b`,
);

// Someone who could be the one in danger. "yo", "year old" and "month old" are ages of people unless an animal
// follows ("my 2 year old dog").
const PERSON = new RegExp(
  [
    '\\b(?:i|im|ive|id|ill|me|my ?self|we|us|our ?selves|you|your ?self)\\b',
    '\\b(?:sons?|daughters?|bab(?:y|ies)|child(?:ren)?|kids?|toddlers?|infants?|newborns?|boys?|girls?|teens?|teenagers?)\\b',
    '\\b(?:husband|wife|partner|boyfriend|girlfriend|fianc[eé]e?|spouse|mum|mom|mummy|mommy|mother|dad|daddy|father|parents?)\\b',
    '\\b(?:brothers?|sisters?|siblings?|twins?|grand(?:ma|mother|pa|dad|father|son|daughter|child|children)|gran|granny|grandad|nan|nana)\\b',
    '\\b(?:aunt|auntie|uncle|cousin|niece|nephew|family|friends?|mates?|flatmates?|roommates?|housemates?|neighbou?rs?|colleagues?|boss|coworkers?)\\b',
    '\\b(?:man|woman|men|women|lady|guy|bloke|person|people|someone|somebody|anyone|anybody|patient|student|pupil|client|resident)\\b',
    '\\b(?:yo|y o|years? old|months? old|weeks? old)\\b(?! (?:cat|dog|puppy|kitten|rabbit|horse|pony|hamster))',
    '\\b(?:pregnan\\w*|labou?r|waters)\\b',
    // an animal that bit, threw or fell on someone: "the dog bit him", "the horse threw her", "fell off"
    '\\b(?:bit|bitten|bites?|biting|attacked|mauled|scratched|kicked|trampled|threw|thrown|knocked|landed on|fell on|stood on|jumped on|went for|charged|gored)\\s+(?:him|her|them)\\b',
    '\\bfell off\\b',
  ].join('|'),
);

// "my" / "our" before anything but an animal: "dog bit my arm" names a person's body.
const MY_NOT_ANIMAL = new RegExp(
  `\\b(?:my|our)\\s+(?!(?:(?:old|new|young|little|big|poor|pet|elderly|senior|sick|rescue|puppy|baby)\\s+)?(?:${ANIMAL_WORDS}|vet)\\b)`,
);

// Questions to us about what to do, which carry a first person without naming one in danger.
const QUESTION_TO_US =
  /\b(?:what (?:do|should|can|shall|would) (?:i|we) do|how worried should (?:i|we) be|(?:should|do|can|shall|must) (?:i|we) (?:take|bring|call|ring|phone|get|go|give|do|worry|be worried|rush)\b(?: (?:him|her|it|them|to|the|a|an|vet|emergency|out|now|straight|in))*|is (?:that|this|it) (?:bad|serious|dangerous|an emergency|normal))\b/g;

/** Lower case, "'s" split off ("dog's" -> "dog s"), other apostrophes dropped ("I'm" -> "im"), the rest spaces. */
function plain(text: string): string {
  return text
    .slice(0, 2000)
    .toLowerCase()
    .replace(/[\u2018\u2019'`]s\b/g, ' s')
    .replace(/[\u2018\u2019'`]/g, '')
    .replace(/[^a-z0-9éè]+/g, ' ')
    .trim();
}

/** True when one turn names a person who could be in danger (see the module comment). */
function namesPerson(turn: string): boolean {
  const text = plain(turn).replace(QUESTION_TO_US, ' ');
  return PERSON.test(text) || MY_NOT_ANIMAL.test(text);
}

/**
 * Whether the latest message and the earlier turns screened with it are about an animal and no person (see the
 * module comment). Never throws; false for anything it does not recognise.
 */
export function aboutAnimalOnly(latest: string, earlier: readonly string[] = []): boolean {
  if (typeof latest !== 'string' || !OPENS_WITH_ANIMAL.test(plain(latest))) return false;
  const previous = earlier.filter((m) => typeof m === 'string' && m.trim() !== '' && m !== latest).slice(-2);
  const turns = [latest, ...previous];
  return turns.every((turn) => ANIMAL.test(plain(turn)) && !namesPerson(turn));
}
