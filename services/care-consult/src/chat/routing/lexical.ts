import stem from 'wink-porter2-stemmer';
import { expandSynonyms } from './synonyms';
import { words } from './text';

// Words that say nothing about which specialist fits ("how do I ...", "my ... is ...").
const STOP_WORDS = new Set(
  (
    "a an and are as at be been but by can could do does did doing for from had has have having how i i'm im if in " +
    "into is it its it's me my myself of on or our ours she he him her his so that the their them then there these " +
    'they this those to was we were what whats when where which who why will with would you your yours about should ' +
    'just also am any some than too very more most really like get got getting go going know want need help please ' +
    "thing things one ok okay hi hello thanks thank lot bit still now even ever much many dont don't cant can't " +
    "wont won't im ive i've id i'd been being all every each other again back up down out off over only own same " +
    'tell say said make made let us will shall may might must yes no not'
  ).split(' '),
);

/** Porter2 stems of the content words of `text`; a word shorter than 2 letters or a stop word is dropped. */
export function stems(text: string): string[] {
  const out: string[] = [];
  for (const w of words(text)) {
    if (w.length < 2 || STOP_WORDS.has(w)) continue;
    out.push(stem(w.replace(/'s$/, '')));
  }
  return out;
}

/** A text's stems after synonym expansion, each once: its own words weigh 1, the expansions 0.8. */
export function queryTerms(text: string): Map<string, number> {
  const terms = new Map<string, number>();
  for (const s of stems(text)) terms.set(s, 1);
  for (const s of stems(expandSynonyms(text).join(' '))) if (!terms.has(s)) terms.set(s, 0.8);
  return terms;
}

/** A document of the lexical index: one agent's fields with their boosts. */
export interface LexicalDoc {
  id: string;
  fields: Array<{ text: string; boost: number }>;
}

const K1 = 1.2;
const B = 0.5;

/**
 * BM25 over stemmed words, with the query's colloquial phrases expanded to the catalog's words first
 * (`passed away` -> `death bereavement grief`). Whole stems only: no prefix matching, so `steps` cannot reach
 * `step-therapy` through a shared prefix and `18 month old` does not reach `older-adults`.
 */
export class LexicalIndex {
  private readonly postings = new Map<string, { docs: number[]; weights: number[]; idf: number }>();
  readonly ids: string[];

  constructor(docs: readonly LexicalDoc[]) {
    this.ids = docs.map((d) => d.id);
    const tf = new Map<string, Map<number, number>>();
    const lengths: number[] = [];
    docs.forEach((doc, di) => {
      let len = 0;
      for (const field of doc.fields) {
        for (const s of stems(field.text)) {
          len += 1;
          let per = tf.get(s);
          if (!per) tf.set(s, (per = new Map()));
          per.set(di, (per.get(di) ?? 0) + field.boost);
        }
      }
      lengths.push(len);
    });
    const avg = lengths.reduce((a, b) => a + b, 0) / Math.max(1, lengths.length) || 1;
    const n = docs.length;
    for (const [term, per] of tf) {
      const entry = {
        docs: [] as number[],
        weights: [] as number[],
        idf: Math.log(1 + (n - per.size + 0.5) / (per.size + 0.5)),
      };
      for (const [di, f] of per) {
        entry.docs.push(di);
        entry.weights.push((f * (K1 + 1)) / (f + K1 * (1 - B + (B * lengths[di]) / avg)));
      }
      this.postings.set(term, entry);
    }
  }

  /** Scores every document (0 when nothing matches), in index order. */
  score(text: string, weight = 1, into = new Float64Array(this.ids.length)): Float64Array {
    return this.scoreTerms(queryTerms(text), weight, into);
  }

  /** {@link score} for a text's terms already found ({@link queryTerms}). */
  scoreTerms(
    terms: ReadonlyMap<string, number>,
    weight = 1,
    into = new Float64Array(this.ids.length),
  ): Float64Array {
    for (const [term, w] of terms) {
      const p = this.postings.get(term);
      if (!p) continue;
      for (let i = 0; i < p.docs.length; i++) into[p.docs[i]] += p.weights[i] * p.idf * w * weight;
    }
    return into;
  }
}
