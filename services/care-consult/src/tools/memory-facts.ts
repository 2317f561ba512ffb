// Which statements of a person are worth remembering (ADR 0420). Deterministic rules, no model: a memory is
// something the person says about themselves that a later conversation should use (a medicine, an allergy,
// a condition, a preference, a goal, a circumstance of their life), never a question, a greeting or small talk.

/** The kinds of fact kept; each becomes a `fact:<kind>` tag. */
export type FactKind = 'allergy' | 'medicine' | 'condition' | 'preference' | 'goal' | 'circumstance';

/** One statement worth keeping and every kind of fact it states. */
export interface Fact {
  kinds: FactKind[];
  text: string;
}

const QUESTION_START =
  /^(what|what's|whats|how|when|why|where|who|whom|which|can|could|should|would|will|shall|is|are|am|do|does|did|may|might|have|has|any|tell me|explain|please (tell|explain|help)|help me)\b/i;
const SMALL_TALK =
  /^(hi|hello|hey|hiya|good (morning|afternoon|evening|night)|thanks?|thank you|ok(ay)?|yes|no|sure|bye|goodbye|cheers|great|cool|fine|nice)\b[\s!.,]*$/i;
const SELF = /\b(i|i'm|im|i've|ive|i'd|my|me|we|our)\b/i;

const RULES: Array<{ kind: FactKind; test: RegExp }> = [
  { kind: 'allergy', test: /\b(allerg(y|ic|ies)|intoleran(t|ce)|anaphyla\w*|react(ion)? badly to)\b/i },
  {
    kind: 'medicine',
    test: /\b(i|we|he|she|they)\s+(take|takes|took|am taking|'m taking|use|inject|am on|'m on|was prescribed|am prescribed|get)\b|\b(prescribed|on)\s+\w+\s+\d|\b\d+(\.\d+)?\s?(mg|mcg|µg|g|ml|units?|iu|puffs?)\b|\b(my|the)\s+(medicine|medication|tablets?|pills?|inhaler|insulin|prescription)\b/i,
  },
  {
    kind: 'condition',
    test: /\b(i have|i've got|ive got|i've had|i had|i suffer|i am diabetic|i'm diabetic|diagnosed|i live with|i'm pregnant|i am pregnant|i'm recovering|i am recovering|my (condition|diagnosis|blood pressure|blood sugar|asthma|diabetes|heart|knee|back)|i (sleep|feel|get) (badly|poorly|tired|dizzy|anxious|pain)|sleep (badly|poorly))\b/i,
  },
  {
    kind: 'preference',
    test: /\b(i prefer|i'd prefer|i would prefer|i like|i don't like|i do not like|i dislike|i'd rather|i would rather|please call me|i'm vegetarian|i am vegetarian|i'm vegan|i am vegan|i avoid)\b/i,
  },
  {
    kind: 'goal',
    test: /\b(my goal|i want to|i'd like to|i would like to|i'm trying to|i am trying to|i plan to|i hope to|i aim to)\b/i,
  },
  {
    kind: 'circumstance',
    test: /\b(i work|i'm working|i am working|i drive|i live|i'm a|i am a|i'm an|i am an|i care for|i look after|my job|i'm (\d+|over|under)|i am (\d+|over|under)|i walk|i run|i exercise|i smoke|i drink)\b/i,
  },
];

/** Splits a message into sentences, keeping each sentence's own end mark (a question keeps its "?"). */
export function sentences(message: string): string[] {
  return (message.match(/[^.!?\n]+[.!?]*/g) ?? []).map((s) => s.trim()).filter(Boolean);
}

/** True for a sentence that asks something rather than states it. */
export function isQuestion(sentence: string): boolean {
  const s = sentence.trim();
  return s.endsWith('?') || QUESTION_START.test(s);
}

/** The kinds of fact a single sentence states; empty when it is not worth keeping. */
function classifySentence(sentence: string): FactKind[] {
  const s = sentence.trim().replace(/[’]/g, "'");
  if (s.length < 8 || s.split(/\s+/).length < 3) return [];
  if (isQuestion(s) || SMALL_TALK.test(s)) return [];
  if (!SELF.test(s) && !/\b(patient|he|she|they)\b/i.test(s)) return [];
  return RULES.filter((rule) => rule.test.test(s)).map((rule) => rule.kind);
}

/** The statements of a message worth remembering, in order (questions, greetings and small talk dropped). */
export function extractFacts(message: string): Fact[] {
  const out: Fact[] = [];
  for (const sentence of sentences(message.slice(0, 4000))) {
    const kinds = classifySentence(sentence);
    if (kinds.length) out.push({ kinds, text: sentence.replace(/[\s.!]+$/, '').slice(0, 500) + '.' });
  }
  return out;
}
