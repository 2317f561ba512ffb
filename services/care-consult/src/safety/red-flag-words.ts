import { correctToken } from './red-flag-typos';

// Character-level clean-up: case, accents, unicode quotes, contractions, punctuation. Written as few
// passes as possible because the detector must handle tens of thousands of messages per second.

// Long pastes are cut to their head and tail: the cost stays bounded and a cry for help typed after a
// pasted document is still seen.
const MAX_CHARS = 8000;
const HALF = MAX_CHARS / 2;

const NON_ASCII = /[\u0080-\uffff]/;
const LAUGH_EMOJI = /[\u{1F602}\u{1F923}\u{1F606}\u{1F605}\u{1F639}\u{1F480}\u{1F62D}]/gu;
const APOSTROPHES = /[\u2018\u2019\u201A\u201B\u2032\u0060\u00B4\u02BC]/g;
const COMBINING_MARKS = /\p{M}/gu;

const FIXED = new Map<string, string>([
  ["od'd", 'overdosed'],
  ["o.d'd", 'overdosed'],
  ["od'ed", 'overdosed'],
  ['oded', 'overdosed'],
  ["can't", 'cannot'],
  ['cant', 'cannot'],
  ['can not', 'cannot'],
  ["won't", 'will not'],
  ['wont', 'will not'],
  ["ain't", 'is not'],
  ['aint', 'is not'],
  ["shan't", 'shall not'],
  ["i'm", 'i am'],
  ['im', 'i am'],
  ["i've", 'i have'],
  ['ive', 'i have'],
  ['youre', 'you are'],
  ['theyre', 'they are'],
  ['hes', 'he is'],
  ['shes', 'she is'],
  ['thats', 'that is'],
  ['theres', 'there is'],
  ['whats', 'what is'],
  ['whos', 'who is'],
  ['wheres', 'where is'],
  ['heres', 'here is'],
  ['dont', 'do not'],
  ['doesnt', 'does not'],
  ['didnt', 'did not'],
  ['isnt', 'is not'],
  ['wasnt', 'was not'],
  ['arent', 'are not'],
  ['werent', 'were not'],
  ['havent', 'have not'],
  ['hasnt', 'has not'],
  ['hadnt', 'had not'],
  ['couldnt', 'could not'],
  ['wouldnt', 'would not'],
  ['shouldnt', 'should not'],
  ['mustnt', 'must not'],
  ['neednt', 'need not'],
]);
const SUFFIXES: ReadonlyArray<readonly [string, string]> = [
  ["n't", ' not'],
  ["'re", ' are'],
  ["'ve", ' have'],
  ["'ll", ' will'],
  ["'d", ' would'],
  // "dad's face" and "dad's fitting" both read acceptably as "dad is ...": cues allow the extra word.
  ["'s", ' is'],
];
const WORDISH = new RegExp(`\\bo\\.d'd\\b|\\bcan not\\b|\\b[a-z]+(?:'[a-z]+)?\\b`, 'g');

function expand(word: string): string {
  const fixed = FIXED.get(word);
  if (fixed !== undefined) return fixed;
  if (!word.includes("'")) return word;
  for (const [suffix, replacement] of SUFFIXES) {
    if (word.endsWith(suffix)) return word.slice(0, -suffix.length) + replacement;
  }
  return word.replace("'", '');
}

/** Lower-case, accent-free, contraction-expanded text with " | " at sentence ends and " , " for commas. */
export function cleanText(raw: string): string {
  let s = raw.length <= MAX_CHARS ? raw : `${raw.slice(0, HALF)}\n${raw.slice(-HALF)}`;
  s = s.toLowerCase();
  if (NON_ASCII.test(s)) {
    s = s
      .replace(LAUGH_EMOJI, ' lol ')
      .replace(APOSTROPHES, "'")
      .normalize('NFKD')
      .replace(COMBINING_MARKS, '');
    s = s.replace(/°/g, ' c ');
  }
  s = s.replace(WORDISH, expand);
  s = s.replace(/(\d)([a-z])/g, '$1 $2');
  // Sentence ends, but not decimal points ("38.5").
  s = s.replace(/(?<!\d)\.|\.(?!\d)|[!?;:\r\n]+/g, ' | ');
  return s.replace(/[^a-z0-9.,| ]+/g, ' ').replace(/,/g, ' , ');
}

/** Splits clean text into tokens, correcting common typos and re-joining split words ("my self"). */
export function toTokens(clean: string): string[] {
  const out: string[] = [];
  for (const raw of clean.split(' ')) {
    if (raw.length === 0) continue;
    const word = correctToken(raw);
    if (word.includes(' ')) {
      for (const part of word.split(' ')) out.push(part);
      continue;
    }
    const prev = out[out.length - 1];
    if (prev === 'my' && word === 'self') out[out.length - 1] = 'myself';
    else if (prev === 'epi' && word === 'pen') out[out.length - 1] = 'epipen';
    else if (word.startsWith('selfharm')) out.push('self', word.slice(4));
    else out.push(word);
  }
  return out;
}
