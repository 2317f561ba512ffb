import type { Clause, NormalizedMessage } from './red-flag-normalize';

/** How a cue reacts to its surroundings; most cues use none of these. */
export interface CueContextFlags {
  /** The person asks about their own method or means ("how many pills would kill me"): question framing does not excuse it. */
  selfDirected?: boolean;
  /** Intent cues (suicide, self-harm): an "if" only excuses them in a joke or when about a third person. */
  intent?: boolean;
  /** Hyperbole-prone wording ("makes me want to die", "I can't breathe"): laughter in the message discards it. */
  jokeProne?: boolean;
  /** The cue itself may end in "anymore" ("no point in living anymore"): skip the after-cue negation check. */
  keepsAfter?: boolean;
}

// NegEx-style triggers looked for in the few words before a cue, inside its clause.
const NEGATION =
  /\b(no|not|never|without|denies|denied|deny|denying|nor|neither|none|negative for|free of|absence of|ruled out|rule out)\b/;
// Phrases that contain a trigger but do not negate what follows ("not sure", "no one is here").
const PSEUDO_NEGATION =
  /\b(not sure|not only|no doubt|not know|no idea|not certain|not tell|no one|nobody|not stop|not just|not even sure|never (felt|had|experienced|seen)( [a-z]+){0,4} like this)\b/g;
const NEGATION_WINDOW = 8;
// Words that end a negation's scope ("won't feed and is very sleepy": the sleepiness is not negated).
const NEGATION_TERMINATOR =
  /.*\b(and (is|are|has|have|was|were|seems|looks|keeps|feels|now|then|also|still|just|suddenly|started)|which|who|whose|while|because)\b/;
const NEGATED_AFTER =
  /^( [a-z0-9.]+){0,5}? (went away|gone away|has gone|have gone|is gone|are gone|has stopped|have stopped|stopped now|resolved|has resolved|cleared up|has passed|have passed|passed now|eased off|better now|fine now|no longer)\b/;
const ANYMORE_AFTER = /^( [a-z0-9.]+){0,3}? (anymore|any more)\b/;

const HISTORY = new RegExp(
  [
    '\\b(in|back in|since|during|around) (19|20)\\d\\d\\b',
    '\\bin the (19)?[0-9]0 ?s\\b',
    '\\b(\\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|few|couple|couple of|several|many|some|a few) (years?|months?|weeks?|decades?) ago\\b',
    '\\b(years|months|ages|decades|a long time|a while|long time) ago\\b',
    '\\blast (year|month|week|spring|summer|autumn|fall|winter|christmas|pregnancy)\\b',
    '\\bas a (child|kid|baby|teen|teenager|toddler|youngster|student)\\b',
    '\\bwhen (i|he|she|they|we) (was|were) (a |an )?(\\d+|young|younger|little|small|kid|child|baby|teen|teenager|toddler|pregnant|at school|in school)\\b',
    '\\b(in|during) (my|his|her|their) (childhood|teens|twenties|thirties|youth|last pregnancy|first pregnancy|previous pregnancy|other pregnancy)\\b',
    '\\bin (high school|college|university|uni)\\b',
    '\\bwith (my|her) (first|last|previous|other|older|eldest) (baby|pregnancy|child|son|daughter)\\b',
    '\\b(history of|used to|in the past|previously|previous|prior|survived|recovered from|recovering from)\\b',
    '\\b(died|passed away|funeral|grieving|grief|lost (him|her|them|my [a-z]+) to)\\b',
    '\\b(since|after) (my|his|her|their) (stroke|heart attack|seizure|overdose|attempt|tia|cardiac arrest|surgery|op)\\b',
  ].join('|'),
);
const RECENCY =
  /\b(now|right now|just|currently|at the moment|today|tonight|this (morning|afternoon|evening)|(\d+|a few|few|couple of|some|ten|twenty|thirty|five|two|three) (minutes?|mins?|hours?|hrs?) ago|an hour ago)\b/;

const HYPOTHETICAL =
  /\b(if|in case|what if|suppose|supposing|hypothetically|in the event|whenever|should (someone|somebody|he|she|they|you|a person)|when (someone|somebody|a person|people|you|kids|children|a child))\b/;
// Preparing for a time that may come, said after the cue: "when to use his EpiPen so I'm ready if it ever happens"
// (ADR 0428). "right now" or "happening now" in the sentence keeps the cue.
const PREPARING_AFTER =
  /\b(?:so (?:that )?i am (?:ready|prepared)|to be (?:ready|prepared)|want to be (?:ready|prepared)|if it ever happens|if it (?:ever )?happens again|in case it (?:ever )?happens|just in case|for the future)\b/;
const PSEUDO_HYPOTHETICAL =
  /\b(as if|not sure if|do not know if|wonder if|wondering if|check if|checking if|see if|ask if|asking if|tell if|know if|unsure if)\b/g;

const EDUCATION = new RegExp(
  [
    '^(what|how|which) (is|are|was|were|does|do|did|causes?|can|could|should|would|happens?|long|much|many|often|common|counts?)\\b',
    '^which\\b',
    '^why (do|does|did|would|is it) (people|someone|a person|some|men|women|kids|children)\\b',
    '\\b(signs?|symptoms?|red flags?|warning signs?) (of|for|that|a|an|to)\\b',
    '\\b(difference between|tell me about|information (on|about)|info (on|about)|first aid|cpr (class|course))\\b',
    '\\b(explain\\w*|teach\\w*|lecture|lectures|class|classes|course|training|exam|quiz|homework|assignment|essay|article|paper|thesis|dissertation|project|research|study|studying|textbook|protocols?|statistics|rates|contagious)\\b',
    '\\b(film|movie|novel|book|story|character|episode|series|song|lyrics|documentary|podcast|fiction)\\b',
    '\\b(when|how) should (i|you|we|one|someone|people|parents)\\b',
    '\\bhow (long|much|many|often|common)\\b',
    '\\bhow (do|can|would|should|does|did) (i|you|we|one|people|parents|someone|a person|doctors)( [a-z]+)? (tell|know|recogni[sz]e|spot|identify|prevent|explain|talk|support|lower|reduce|avoid|check|count|do cpr|perform|learn|differentiate|distinguish)\\b',
    '\\b(how to|ways to|tips (to|for|on)|(right|best|correct|proper|safest) way)\\b',
    '\\b(can|could|does|do|will|would|might|may) (a |an |the |my |your )?([a-z]+ ){0,2}(cause|causes|trigger|turn into|lead to|mimic|become|result in)\\b',
    '\\b(is it|is that|is this|are they) (normal|common|serious|dangerous|safe|possible|okay|ok|hereditary|genetic)\\b',
    '\\b(vaccine|vaccination|vaccinated|booster|prevention|prevent|preventing|risk|risks|likelihood)\\b',
  ].join('|'),
);
const EDUCATION_EXCEPT =
  /^(what|how) (do|should|can|could|would) (i|we) (do|stop|help|get)\b|^what (is|are) (happening|wrong|going on)\b/;
const PRESENT_NOW = /\b(right now|happening now|in front of me)\b/;
const FIRST_PERSON_NOW =
  /\b(i am|i feel|i have been|i keep|i want|i need|i will|i plan|i think i am|i really)\s*$/;

// Long-standing conditions ("seizures for years") are history to discuss, not an emergency now.
const CHRONIC =
  /\b(lately|these days|recently)\b|\bfor (years|months|ages|decades|a long time|most of my life|as long as i can remember)\b|\bsince (childhood|birth|i was (a )?(kid|child|baby|teen|teenager|\d+))\b/;
// Habitual or recurring statements describe a pattern to discuss, not an emergency happening now.
const HABITUAL =
  /\b(whenever|every time|each time|sometimes|usually|tends to|tend to)\b|\bwhen (i|he|she|they|we|you) (eat|eats|drink|drinks|exercise|exercises|run|runs|cough|coughs|walk|walks|climb|climbs|lie down|lies down|get nervous|am nervous|is nervous|stand up|stands up|wake up|wakes up)\b/;
const GENERIC_SUBJECT =
  /(?<!\b(?:my|our|his|her|your|the|their|this|that) )\b(someone|somebody|a person|people|anyone|anybody|patients|a patient|children|kids|adults|the elderly|women|men|athletes|teens|teenagers)\b/;
const PRESENCE =
  /\b(in front of me|next to me|with me|here|right now|on the (floor|ground|street|pavement|bus|train|road)|just|now)\b/;
const FEAR_BEFORE =
  /\b(?:(?:afraid|scared|worried|worry|worrying|terrified|frightened|anxious|nervous|paranoid|fear|fears|thought|thoughts|thinking|risk|chance|chances|odds) (?:of|about)|avoid|avoiding|prevent|preventing)(?: (?:having|getting|another|a|an))*\s*$/;
const THIRD_PERSON_INTENT = /\b(himself|herself|themselves|themself)\b/;

function lastWords(text: string, n: number): string {
  // Only the tail matters; slicing first keeps long clauses cheap.
  const words = text
    .slice(-n * 16)
    .split(' ')
    .filter((w) => w.length > 0 && w !== ',');
  return words.slice(-n).join(' ');
}

// Sentence- and clause-level tests are shared by every cue matching in that span: computed once and
// kept on the message's own memo.
const SPAN_TESTS = [
  'recency',
  'history',
  'education',
  'edu_except',
  'present_now',
  'habitual',
  'chronic',
  'presence',
];
function spanTest(norm: NormalizedMessage, key: string, re: RegExp, start: number, end: number): boolean {
  const id = start * SPAN_TESTS.length + SPAN_TESTS.indexOf(key);
  let value = norm.memo.get(id);
  if (value === undefined) {
    value = re.test(norm.text.slice(start, end));
    norm.memo.set(id, value);
  }
  return value;
}

function negatedBefore(before: string): boolean {
  // Fast reject: most cues have no negation word anywhere near them.
  if (!NEGATION.test(before.slice(-NEGATION_WINDOW * 16))) return false;
  const tail = lastWords(before, NEGATION_WINDOW)
    .replace(PSEUDO_NEGATION, ' ')
    .replace(NEGATION_TERMINATOR, ' ');
  return NEGATION.test(tail);
}

/** Everything the suppression checks need to know about one cue match. */
export interface MatchSite {
  norm: NormalizedMessage;
  clause: Clause;
  start: number;
  end: number;
}

/**
 * Why a cue match must not count (negated, past history, hypothetical, education, generic subject, fear
 * of the future, joke), or null when it stands. Scopes: negation and education look at the clause,
 * history and hypotheticals at the sentence, because "years ago, I took 30 pills" splits into clauses.
 */
export function suppression(site: MatchSite, flags: CueContextFlags): string | null {
  const { norm, clause, start, end } = site;
  const text = norm.text;
  const sentence = norm.sentences[clause.sentence]!;
  const inSentence = (key: string, re: RegExp): boolean =>
    spanTest(norm, key, re, sentence.start, sentence.end);
  const inClause = (key: string, re: RegExp): boolean => spanTest(norm, key, re, clause.start, clause.end);
  const before = text.slice(clause.start, start);
  const after = text.slice(end, clause.end);
  const matchText = text.slice(start, end);

  if (negatedBefore(before)) return 'negation';
  if (NEGATED_AFTER.test(after) || (!flags.keepsAfter && ANYMORE_AFTER.test(after))) return 'negation_after';
  const recent = inClause('recency', RECENCY);
  if (inSentence('history', HISTORY) && !recent) return 'history';
  const sentenceBefore = text.slice(sentence.start, start).replace(PSEUDO_HYPOTHETICAL, ' ');
  if (HYPOTHETICAL.test(sentenceBefore)) {
    const excused = flags.intent && !norm.laughter && !THIRD_PERSON_INTENT.test(matchText);
    if (!excused) return 'hypothetical';
  }
  if (
    !flags.intent &&
    PREPARING_AFTER.test(text.slice(end, sentence.end)) &&
    !inSentence('present_now', PRESENT_NOW)
  )
    return 'preparing';
  const firstPerson =
    FIRST_PERSON_NOW.test(before.slice(-40)) || /^i (am|feel|want|need|will|keep|plan)\b/.test(matchText);
  if (
    !flags.selfDirected &&
    !firstPerson &&
    inClause('education', EDUCATION) &&
    !inClause('edu_except', EDUCATION_EXCEPT)
  ) {
    if (!inSentence('present_now', PRESENT_NOW)) return 'education';
  }
  if (!flags.intent && inSentence('habitual', HABITUAL)) return 'habitual';
  if (!flags.intent && inSentence('chronic', CHRONIC) && !recent) return 'chronic';
  if (GENERIC_SUBJECT.test(before) && !inSentence('presence', PRESENCE)) return 'generic_subject';
  if (!flags.intent && FEAR_BEFORE.test(before)) return 'fear_or_future';
  if (flags.jokeProne && norm.laughter) return 'joke';
  return null;
}
