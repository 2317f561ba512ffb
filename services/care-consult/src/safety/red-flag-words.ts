import { correctToken } from './red-flag-typos';

// Character-level clean-up and tokenising: case, accents, unicode quotes, contractions, punctuation,
// typos. A hand-written single pass, because the detector must handle tens of thousands of messages
// per second and a chain of regex replacements cost most of that budget.

// Long pastes are cut to their head and tail: the cost stays bounded and a cry for help typed after a
// pasted document is still seen.
const MAX_CHARS = 8000;
const HALF = MAX_CHARS / 2;

/** Token that marks a sentence end; commas are kept as the token ",". */
export const SENTENCE_END = '|';

const NON_ASCII = /[\u0080-\uffff]/;
const LAUGH_EMOJI = /[\u{1F602}\u{1F923}\u{1F606}\u{1F605}\u{1F639}\u{1F480}\u{1F62D}]/gu;
const APOSTROPHES = /[\u2018\u2019\u201A\u201B\u2032\u0060\u00B4\u02BC]/g;
const COMBINING_MARKS = /\p{M}/gu;

// Whole-word expansions, "word=expansion" with "_" for a space; the apostrophe-less forms people type.
const FIXED = new Map<string, string>(
  (
    "od'd=overdosed od'ed=overdosed oded=overdosed can't=cannot cant=cannot won't=will_not wont=will_not " +
    "ain't=is_not aint=is_not shan't=shall_not i'm=i_am im=i_am i've=i_have ive=i_have youre=you_are " +
    'theyre=they_are hes=he_is shes=she_is thats=that_is theres=there_is whats=what_is whos=who_is ' +
    'wheres=where_is heres=here_is dont=do_not doesnt=does_not didnt=did_not isnt=is_not wasnt=was_not ' +
    'arent=are_not werent=were_not havent=have_not hasnt=has_not hadnt=had_not couldnt=could_not ' +
    'wouldnt=would_not shouldnt=should_not mustnt=must_not neednt=need_not'
  )
    .split(' ')
    .map((pair) => pair.split('=') as [string, string])
    .map(([word, expansion]) => [word, expansion.replace(/_/g, ' ')]),
);
// "dad's face" and "dad's fitting" both read acceptably as "dad is ...": cues allow the extra word.
const SUFFIXES: ReadonlyArray<readonly [string, string]> = [
  ["n't", ' not'],
  ["'re", ' are'],
  ["'ve", ' have'],
  ["'ll", ' will'],
  ["'d", ' would'],
  ["'s", ' is'],
];

function expand(word: string): string {
  const fixed = FIXED.get(word);
  if (fixed !== undefined) return fixed;
  if (!word.includes("'")) return word;
  if (isDigit(word.charCodeAt(0))) return word.replace(/'/g, '');
  for (const [suffix, replacement] of SUFFIXES) {
    if (word.endsWith(suffix)) return word.slice(0, -suffix.length) + replacement;
  }
  return word.replace(/'/g, '');
}

function push(out: string[], word: string): void {
  const prev = out[out.length - 1];
  if (prev === 'my' && word === 'self') out[out.length - 1] = 'myself';
  else if (prev === 'epi' && word === 'pen') out[out.length - 1] = 'epipen';
  else if (prev === 'can' && word === 'not') out[out.length - 1] = 'cannot';
  else if (word.startsWith('selfharm')) out.push('self', word.slice(4));
  else out.push(word);
}

function pushWord(out: string[], raw: string): void {
  const word = correctToken(expand(raw));
  if (!word.includes(' ')) return push(out, word);
  for (const part of word.split(' ')) push(out, correctToken(part));
}

function pushEnd(out: string[]): void {
  if (out.length > 0 && out[out.length - 1] !== SENTENCE_END) out.push(SENTENCE_END);
}

const isLetter = (c: number): boolean => c >= 97 && c <= 122;
const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/** Lower-cased, accent-free tokens: words, numbers ("38.5"), "," and "|" at sentence ends. */
export function tokenize(raw: string): string[] {
  let s = (raw.length <= MAX_CHARS ? raw : `${raw.slice(0, HALF)}\n${raw.slice(-HALF)}`).toLowerCase();
  if (NON_ASCII.test(s)) {
    s = s
      .replace(LAUGH_EMOJI, ' lol ')
      .replace(APOSTROPHES, "'")
      .normalize('NFKD')
      .replace(COMBINING_MARKS, '');
    s = s.replace(/°/g, ' c ');
  }
  const out: string[] = [];
  let start = -1;
  const flush = (end: number): void => {
    if (start >= 0) pushWord(out, s.slice(start, end));
    start = -1;
  };
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (isLetter(c)) {
      // "10mg" and "38c" are a number and a unit.
      if (start >= 0 && isDigit(s.charCodeAt(i - 1))) flush(i);
      if (start < 0) start = i;
    } else if (isDigit(c)) {
      if (start < 0) start = i;
    } else if (c === 39 && start >= 0 && isLetter(s.charCodeAt(i + 1))) {
      // An apostrophe inside a word belongs to it ("can't", "dad's").
    } else if (c === 46 && start >= 0 && isDigit(s.charCodeAt(i - 1)) && isDigit(s.charCodeAt(i + 1))) {
      // A decimal point ("38.5").
    } else {
      flush(i);
      if (c === 44) out.push(',');
      else if (c === 46 || c === 33 || c === 63 || c === 59 || c === 58 || c === 10 || c === 13) pushEnd(out);
    }
  }
  flush(s.length);
  return out;
}
