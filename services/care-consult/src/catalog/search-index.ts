/** One ranked hit. */
export interface SearchHit {
  id: string;
  score: number;
  /** Position of the document in the list the index was built from. */
  doc: number;
}

/** A document to index: an id and its text per field. */
export interface IndexDoc {
  id: string;
  fields: Record<string, string>;
}

// Words that carry no topic in a health question; indexing them would let every persona match.
const STOP_WORDS = new Set(
  (
    'a an and are as at be but by can do for from have how i if in into is it its me my no not of on or our so ' +
    'than that the their them then there these they this to too was we what when where which who why will with ' +
    'you your yours about after also any been before being could did does had has he her his just more most she ' +
    'should some such very would'
  ).split(' '),
);

/** Lower-case, accents off, stop words out, a light plural stem (`medications` -> `medication`). */
export function normaliseTerm(term: string): string | null {
  const t = term
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  if (!t || STOP_WORDS.has(t)) return null;
  if (t.length > 4 && t.endsWith('ies')) return `${t.slice(0, -3)}y`;
  if (t.length > 4 && t.endsWith('sses')) return t.slice(0, -2);
  if (t.length > 3 && t.endsWith('s') && !/(ss|us|is)$/.test(t)) return t.slice(0, -1);
  return t;
}

/** Splits text into normalised terms (letters and digits; everything else separates). */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(/[^\p{L}\p{N}]+/u)) {
    const t = raw && normaliseTerm(raw);
    if (t) out.push(t);
  }
  return out;
}

/** True when `a` and `b` differ by at most one insertion, deletion, substitution or adjacent swap. */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > 1) return false;
  let i = 0;
  while (i < la && i < lb && a[i] === b[i]) i++;
  if (la === lb) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true; // substitution
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2); // transposition
  }
  return la > lb ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

const K1 = 1.2;
const B = 0.75;
/** A word the query only starts (`triag` -> `triage`) counts half as much as the whole word. */
const PREFIX_FACTOR = 0.5;
/** A one-typo match counts less than a prefix. */
const FUZZY_FACTOR = 0.35;
const MAX_EXPANSIONS = 64;

interface Postings {
  docs: Int32Array;
  weights: Float32Array;
  idf: number;
}

/**
 * A read-only inverted index with BM25F scoring (per-field length normalisation and boosts), prefix matching
 * for query words of 3+ letters and one-typo matching for words of 5+ letters that match nothing. Postings
 * are typed arrays and scores accumulate in one Float64Array per query, so a search costs the postings it
 * touches, not the number of documents (see docs/adr/0201-catalog-search-index.md).
 */
export class SearchIndex {
  private readonly ids: string[];
  private readonly postings = new Map<string, Postings>();
  private readonly vocabulary: string[];
  private readonly byLength = new Map<number, string[]>();
  private readonly scores: Float64Array;
  private readonly touched: Int32Array;

  constructor(docs: Iterable<IndexDoc>, boosts: Record<string, number>) {
    const list = [...docs];
    this.ids = list.map((d) => d.id);
    this.scores = new Float64Array(list.length);
    this.touched = new Int32Array(list.length);
    const fields = Object.keys(boosts);
    const lengths = fields.map(() => new Float64Array(list.length));
    const tfs = new Map<string, Map<number, Float64Array>>();
    list.forEach((doc, di) => {
      fields.forEach((f, fi) => {
        const terms = tokenize(doc.fields[f] ?? '');
        lengths[fi][di] = terms.length;
        for (const t of terms) {
          let perDoc = tfs.get(t);
          if (!perDoc) tfs.set(t, (perDoc = new Map()));
          let tf = perDoc.get(di);
          if (!tf) perDoc.set(di, (tf = new Float64Array(fields.length)));
          tf[fi] += 1;
        }
      });
    });
    const avg = lengths.map((l) => (l.length ? l.reduce((a, b) => a + b, 0) / l.length : 0) || 1);
    const n = list.length;
    for (const [term, perDoc] of tfs) {
      const docsArr = new Int32Array(perDoc.size);
      const weights = new Float32Array(perDoc.size);
      let k = 0;
      for (const [di, tf] of perDoc) {
        let w = 0;
        fields.forEach((f, fi) => {
          if (!tf[fi]) return;
          const norm = 1 - B + (B * lengths[fi][di]) / avg[fi];
          w += (boosts[f] * tf[fi] * (K1 + 1)) / (tf[fi] + K1 * norm);
        });
        docsArr[k] = di;
        weights[k++] = w;
      }
      const df = perDoc.size;
      this.postings.set(term, { docs: docsArr, weights, idf: Math.log(1 + (n - df + 0.5) / (df + 0.5)) });
    }
    this.vocabulary = [...this.postings.keys()].sort();
    for (const t of this.vocabulary) {
      const bucket = this.byLength.get(t.length);
      if (bucket) bucket.push(t);
      else this.byLength.set(t.length, [t]);
    }
  }

  /** Number of indexed documents. */
  get size(): number {
    return this.ids.length;
  }

  /** Every matching document, best first; ties by id so the order is stable. */
  search(query: string): SearchHit[] {
    return this.top(query, { limit: Number.POSITIVE_INFINITY }).hits;
  }

  /**
   * The `limit` best documents that `accept` lets through (by position in the indexed list), and how many
   * were let through in all. Selection keeps only the current best `limit`, so nothing is sorted in full.
   * Searches are synchronous, so the scratch buffers can be shared between them.
   */
  top(
    query: string,
    opts: { limit: number; accept?: (doc: number) => boolean },
  ): { total: number; hits: SearchHit[] } {
    const { scores } = this;
    let touchedCount = 0;
    const touched = this.touched;
    const add = (p: Postings, factor: number) => {
      const f = p.idf * factor;
      for (let i = 0; i < p.docs.length; i++) {
        const d = p.docs[i];
        if (scores[d] === 0) touched[touchedCount++] = d;
        scores[d] += p.weights[i] * f;
      }
    };
    for (const term of new Set(tokenize(query))) {
      const exact = this.postings.get(term);
      if (exact) add(exact, 1);
      const expansions = term.length >= 3 ? this.prefixed(term) : [];
      for (const v of expansions) add(this.postings.get(v)!, PREFIX_FACTOR * (term.length / v.length));
      if (!exact && !expansions.length && term.length >= 5) {
        for (const v of this.oneEditAway(term)) add(this.postings.get(v)!, FUZZY_FACTOR);
      }
    }
    const best: number[] = [];
    let total = 0;
    const better = (a: number, b: number) =>
      scores[a] > scores[b] || (scores[a] === scores[b] && this.ids[a] < this.ids[b]);
    for (let i = 0; i < touchedCount; i++) {
      const d = touched[i];
      if (opts.accept && !opts.accept(d)) continue;
      total++;
      if (best.length >= opts.limit && !better(d, best[best.length - 1])) continue;
      let at = best.length;
      while (at > 0 && better(d, best[at - 1])) at--;
      best.splice(at, 0, d);
      if (best.length > opts.limit) best.pop();
    }
    const hits = best.map((d) => ({ id: this.ids[d], score: scores[d], doc: d }));
    for (let i = 0; i < touchedCount; i++) scores[touched[i]] = 0;
    return { total, hits };
  }

  private prefixed(term: string): string[] {
    let lo = 0;
    let hi = this.vocabulary.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.vocabulary[mid] < term) lo = mid + 1;
      else hi = mid;
    }
    const out: string[] = [];
    for (let i = lo; i < this.vocabulary.length && out.length < MAX_EXPANSIONS; i++) {
      const v = this.vocabulary[i];
      if (!v.startsWith(term)) break;
      if (v !== term) out.push(v);
    }
    return out;
  }

  private oneEditAway(term: string): string[] {
    const out: string[] = [];
    for (let len = term.length - 1; len <= term.length + 1; len++) {
      for (const v of this.byLength.get(len) ?? []) {
        if (v !== term && withinOneEdit(term, v)) out.push(v);
        if (out.length >= MAX_EXPANSIONS) return out;
      }
    }
    return out;
  }
}
