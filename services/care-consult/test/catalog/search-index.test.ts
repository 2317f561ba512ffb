import fc from 'fast-check';
import { SearchIndex, tokenize, withinOneEdit } from '../../src/catalog/search-index';

const WORDS = [
  'sleep',
  'sleeping',
  'insurance',
  'claim',
  'grief',
  'asthma',
  'triage',
  'night',
  'shift',
  'coach',
  'kidney',
  'diet',
];
const docArb = fc.record({
  name: fc.array(fc.constantFrom(...WORDS), { maxLength: 3 }).map((w) => w.join(' ')),
  body: fc.array(fc.constantFrom(...WORDS), { maxLength: 12 }).map((w) => w.join(' ')),
});
const corpusArb = fc
  .array(docArb, { minLength: 1, maxLength: 30 })
  .map((docs) => docs.map((d, i) => ({ id: `d${String(i).padStart(2, '0')}`, fields: d })));
const BOOST = { name: 3, body: 1 };

/** Reference edit distance (Damerau, adjacent swaps) by full dynamic programming. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

describe('SearchIndex', () => {
  it('returns every document holding a query word, ranked by non-increasing score, and nothing unrelated', () => {
    fc.assert(
      fc.property(corpusArb, fc.constantFrom(...WORDS), (docs, word) => {
        const index = new SearchIndex(docs, BOOST);
        const hits = index.search(word);
        const term = tokenize(word)[0];
        const holding = docs.filter((d) =>
          tokenize(`${d.fields.name} ${d.fields.body}`).some((t) => t === term || t.startsWith(term)),
        );
        expect(new Set(hits.map((h) => h.id))).toEqual(new Set(holding.map((d) => d.id)));
        for (let i = 1; i < hits.length; i++) expect(hits[i - 1].score).toBeGreaterThanOrEqual(hits[i].score);
      }),
    );
  });

  it('selects the same best documents as a full sort, with the filtered total', () => {
    fc.assert(
      fc.property(
        corpusArb,
        fc.constantFrom(...WORDS),
        fc.integer({ min: 1, max: 5 }),
        (docs, word, limit) => {
          const index = new SearchIndex(docs, BOOST);
          const accept = (d: number) => d % 2 === 0;
          const all = index.search(word).filter((h) => accept(h.doc));
          const top = index.top(word, { limit, accept });
          expect(top.total).toBe(all.length);
          expect(top.hits).toEqual(all.slice(0, limit));
        },
      ),
    );
  });

  it('ranks a word in the boosted name above the same word in the body', () => {
    const index = new SearchIndex(
      [
        { id: 'a', fields: { name: 'coach', body: 'grief support' } },
        { id: 'b', fields: { name: 'grief', body: 'coach' } },
      ],
      BOOST,
    );
    expect(index.search('grief').map((h) => h.id)).toEqual(['b', 'a']);
  });

  it('matches one typo only when the word matches nothing exactly', () => {
    const index = new SearchIndex([{ id: 'a', fields: { name: 'insurance', body: '' } }], BOOST);
    expect(index.search('insurence').map((h) => h.id)).toEqual(['a']);
    expect(index.search('insurnece')).toEqual([]); // two edits away
  });

  it('agrees with a reference edit distance on "at most one edit"', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 6 }),
        fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 6 }),
        (a, b) => {
          expect(withinOneEdit(a, b)).toBe(distance(a, b) <= 1);
        },
      ),
    );
  });
});
