import { SENTENCE_END, tokenize } from './red-flag-words';

/** A half-open character range in the normalised text. */
export interface Span {
  start: number;
  end: number;
}

/** A clause and the sentence it belongs to (index into `sentences`). */
export interface Clause extends Span {
  sentence: number;
}

/**
 * A message reduced to lower-case words with contractions expanded. Clauses are joined with " / " and
 * sentences with " | ", so cue patterns (which only span words and single spaces) never cross them.
 */
export interface NormalizedMessage {
  text: string;
  tokens: readonly string[];
  clauses: readonly Clause[];
  sentences: readonly Span[];
  /** The message laughs or jokes ("lol", "haha", a laughing emoji): used to discard hyperbole. */
  laughter: boolean;
  /** Scratch space for span-level context tests (see red-flag-context.ts), filled lazily. */
  memo: Map<number, boolean>;
}

const LAUGH_WORD = /\b(lol+|lmf?ao+|rofl|ha(ha)+h?|he(he)+|jk|just kidding|kidding|joking|hilarious|meme)\b/;

const CLAUSE_BREAK_WORDS = new Set(['but', 'however', 'although', 'though', 'except', 'whereas', 'yet']);
const SUBJECT_START = new Set([
  'i',
  'he',
  'she',
  'they',
  'we',
  'it',
  'its',
  'my',
  'his',
  'her',
  'their',
  'our',
  'the',
  'this',
  'that',
  'there',
  'now',
  'then',
  'someone',
  'somebody',
  'you',
  'just',
  'also',
  'what',
  'will',
  'can',
  'could',
  'should',
  'is',
  'does',
  'do',
  'how',
  'please',
  'any',
  'why',
  'when',
]);
// "Can't. Breathe." is one thought typed in fragments: a one- or two-word sentence runs into the next,
// unless it is an answer ("No.", "Yes.") that must not negate or affirm what follows.
const ANSWER_WORDS = new Set([
  'no',
  'not',
  'nope',
  'never',
  'yes',
  'yeah',
  'ok',
  'okay',
  'thanks',
  'hi',
  'hello',
]);
function joinsNext(current: readonly string[], sentenceStart: number, next: string): boolean {
  return (
    sentenceStart < 0 &&
    current.length > 0 &&
    current.length <= 2 &&
    /^[a-z]/.test(next) &&
    !current.some((t) => ANSWER_WORDS.has(t))
  );
}

/** Lower-cases, expands contractions, fixes common typos and splits a message into sentences and clauses. */
export function normalizeMessage(raw: string): NormalizedMessage {
  const tokens = tokenize(typeof raw === 'string' ? raw : '');

  const sentences: Span[] = [];
  const clauses: Clause[] = [];
  const parts: string[] = [];
  let offset = 0;
  let current: string[] = [];
  let sentenceStart = -1;
  const closeClause = (): void => {
    while (current.length > 0 && current[current.length - 1] === ',') current.pop();
    while (current.length > 0 && current[0] === ',') current.shift();
    if (current.length === 0) return;
    const sep = parts.length === 0 ? '' : sentenceStart < 0 ? ' | ' : ' / ';
    parts.push(sep);
    offset += sep.length;
    const body = current.join(' ');
    if (sentenceStart < 0) sentenceStart = offset;
    clauses.push({ start: offset, end: offset + body.length, sentence: sentences.length });
    parts.push(body);
    offset += body.length;
    current = [];
  };
  const closeSentence = (): void => {
    closeClause();
    if (sentenceStart >= 0) sentences.push({ start: sentenceStart, end: offset });
    sentenceStart = -1;
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const next = tokens[i + 1] ?? '';
    if (token === SENTENCE_END && joinsNext(current, sentenceStart, next)) continue;
    if (token === SENTENCE_END) closeSentence();
    else if (CLAUSE_BREAK_WORDS.has(token)) closeClause();
    else if ((token === ',' || token === 'and' || token === 'so') && SUBJECT_START.has(next)) closeClause();
    else current.push(token);
  }
  closeSentence();
  const text = parts.join('');
  const words = tokens.filter((t) => t !== SENTENCE_END && t !== ',');
  return { text, tokens: words, clauses, sentences, laughter: LAUGH_WORD.test(text), memo: new Map() };
}
