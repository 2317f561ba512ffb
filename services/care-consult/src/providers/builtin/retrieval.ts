// Small lexical retrieval (BM25) for the built-in engine: no model weights, deterministic, fast enough to run
// per request over a few dozen reference documents.

import { tokenize } from '@care/passage-rank';

/** Lower-cases, splits on non-letters/digits, drops stopwords and folds simple plurals (shared with KB re-ranking). */
export { tokenize };

/** A retrievable passage and where it came from. */
export interface Passage<TSource> {
  source: TSource;
  text: string;
  /** Section heading: query words found here add their weight again, since a heading says what a section is about. */
  heading?: string;
  /** Position within its source, to put chosen passages back in reading order. */
  position: number;
}

/** A passage with its BM25 score for one query. */
export interface ScoredPassage<TSource> extends Passage<TSource> {
  score: number;
}

/**
 * BM25 index over passages; build once per document set, query many times. Postings per term (and per heading
 * term) make a query touch only the passages holding one of its words, not every passage.
 */
export class Bm25Index<TSource> {
  private readonly passages: Array<Passage<TSource>>;
  /** term -> [passage number, term frequency] pairs, flattened. */
  private readonly postings = new Map<string, number[]>();
  /** heading term -> passage numbers. */
  private readonly headings = new Map<string, number[]>();
  private readonly norm: Float64Array;

  constructor(
    passages: Array<Passage<TSource>>,
    private readonly k1 = 1.2,
    b = 0.75,
    private readonly headingWeight = 1.5,
  ) {
    this.passages = passages;
    const lengths = new Float64Array(passages.length);
    passages.forEach((passage, doc) => {
      const tf = new Map<string, number>();
      const terms = tokenize(passage.text);
      for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [t, f] of tf) {
        const list = this.postings.get(t);
        if (list) list.push(doc, f);
        else this.postings.set(t, [doc, f]);
      }
      for (const t of new Set(tokenize(passage.heading ?? ''))) {
        const list = this.headings.get(t);
        if (list) list.push(doc);
        else this.headings.set(t, [doc]);
      }
      lengths[doc] = terms.length;
    });
    const avgLength = lengths.reduce((sum, l) => sum + l, 0) / Math.max(1, passages.length) || 1;
    // The length part of the BM25 denominator, per passage.
    this.norm = lengths.map((l) => k1 * (1 - b + (b * l) / avgLength));
  }

  /** Passages with a positive score, best first (ties keep index order, so results are deterministic). */
  search(query: string, limit = 5): Array<ScoredPassage<TSource>> {
    const n = this.passages.length;
    const scores = new Map<number, number>();
    for (const t of new Set(tokenize(query))) {
      const list = this.postings.get(t);
      const df = list ? list.length / 2 : 0;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      for (const doc of this.headings.get(t) ?? [])
        scores.set(doc, (scores.get(doc) ?? 0) + this.headingWeight * idf);
      if (!list) continue;
      for (let i = 0; i < list.length; i += 2) {
        const doc = list[i];
        const f = list[i + 1];
        scores.set(doc, (scores.get(doc) ?? 0) + (idf * f * (this.k1 + 1)) / (f + this.norm[doc]));
      }
    }
    const ranked = [...scores].filter(([, score]) => score > 0);
    ranked.sort((x, y) => y[1] - x[1] || x[0] - y[0]);
    return ranked.slice(0, limit).map(([doc, score]) => ({ ...this.passages[doc], score }));
  }
}

/** A passage of a Markdown document and the heading it sits under. */
export interface MarkdownPassage {
  heading: string;
  text: string;
}

/**
 * Splits a Markdown document into paragraphs and list blocks under their section (level 2+) heading; front
 * matter, headings and table rules removed. The level-1 title names the whole document, so it is no section.
 */
export function splitPassages(markdown: string): MarkdownPassage[] {
  const body = markdown.replace(/^---\r?\n[\s\S]*?\r?\n---\r?\n?/, '');
  const out: MarkdownPassage[] = [];
  let heading = '';
  for (const block of body.split(/\r?\n\s*\r?\n/)) {
    const text: string[] = [];
    for (const raw of block.split(/\r?\n/)) {
      const line = raw.trim();
      if (!line) continue;
      const h = /^(#{1,6})\s+(.*)$/.exec(line);
      if (h) heading = h[1].length === 1 ? '' : h[2].trim();
      else if (!/^\|?[\s:|-]*-{3,}[\s:|-]*$/.test(line)) text.push(line);
    }
    if (!text.length) continue;
    // Source files are hard-wrapped: continuation lines rejoin their sentence, list items keep their own line.
    const joined = text.reduce(
      (acc, line, i) =>
        i === 0 ? line : /^([-*+]|\d+[.)]|\|)\s/.test(line) ? `${acc}\n${line}` : `${acc} ${line}`,
      '',
    );
    const prev = out[out.length - 1];
    // "Call emergency services for:" belongs with the list under it: one passage, so it is quoted whole.
    if (prev && prev.heading === heading && prev.text.endsWith(':')) prev.text += `\n${joined}`;
    else out.push({ heading, text: joined });
  }
  return out;
}
