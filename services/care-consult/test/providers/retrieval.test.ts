import fc from 'fast-check';
import { Bm25Index, tokenize, type Passage } from '../../src/providers/builtin/retrieval';
import { selectPassages } from '../../src/providers/builtin/builtin.answer';

/** The textbook BM25 scan over every passage: the reference the postings index must agree with. */
function scanScores(passages: Array<Passage<number>>, query: string): Array<[number, number]> {
  const docs = passages.map((p) => {
    const terms = tokenize(p.text);
    const tf = new Map<string, number>();
    for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
    return { tf, heading: new Set(tokenize(p.heading ?? '')), length: terms.length };
  });
  const avg = docs.reduce((s, d) => s + d.length, 0) / Math.max(1, docs.length) || 1;
  const n = docs.length;
  const out: Array<[number, number]> = [];
  docs.forEach((d, i) => {
    let score = 0;
    for (const t of new Set(tokenize(query))) {
      const df = docs.filter((x) => x.tf.has(t)).length;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      if (d.heading.has(t)) score += 1.5 * idf;
      const f = d.tf.get(t);
      if (f) score += (idf * f * 2.2) / (f + 1.2 * (1 - 0.75 + (0.75 * d.length) / avg));
    }
    if (score > 0) out.push([i, score]);
  });
  return out.sort((x, y) => y[1] - x[1] || x[0] - y[0]);
}

const WORDS = [
  'sleep',
  'sleeps',
  'routine',
  'caffeine',
  'night',
  'breathing',
  'calm',
  'the',
  'and',
  'light',
  'screen',
  'bed',
];
const text = fc.array(fc.constantFrom(...WORDS), { maxLength: 30 }).map((w) => w.join(' '));

describe('Bm25Index', () => {
  it('ranks exactly as a full BM25 scan over every passage (scores, order, ties by position)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ text, heading: fc.option(text, { nil: undefined }) }), { maxLength: 25 }),
        text,
        fc.integer({ min: 1, max: 30 }),
        (docs, query, limit) => {
          const passages = docs.map((d, position) => ({
            source: position,
            text: d.text,
            heading: d.heading,
            position,
          }));
          const got = new Bm25Index(passages).search(query, limit).map((p) => [p.source, p.score]);
          const want = scanScores(passages, query).slice(0, limit);
          expect(got.map(([i]) => i)).toEqual(want.map(([i]) => i));
          got.forEach(([, score], k) => expect(score).toBeCloseTo(want[k][1], 9));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('selectPassages', () => {
  const doc = (title: string, body: string) => ({ title, text: `# ${title}\n\n${body}` });
  const sleep = doc('Sleep', '## Routine\n\nKeep the same bedtime.\n\n## Caffeine\n\nNo coffee after noon.');
  const calm = doc('Calm', '## Breathing\n\nBreathe out slowly.');

  it('returns passages of the sources given in this call, also when the same texts were indexed before', () => {
    const first = selectPassages('coffee caffeine', [sleep, calm]);
    const again = [{ ...sleep }, { ...calm }];
    const second = selectPassages('coffee caffeine', again);
    expect(second.map((p) => p.text)).toEqual(first.map((p) => p.text));
    expect(second[0].source).toBe(again[0]);
    expect(second.map((p) => p.text)).toEqual(['No coffee after noon.']);
  });

  it('keeps sources apart: the same question over other documents quotes those documents', () => {
    expect(selectPassages('breathe slowly', [calm, sleep])[0]).toMatchObject({
      text: 'Breathe out slowly.',
      source: calm,
    });
    expect(selectPassages('breathe slowly', [sleep]).map((p) => p.source)).toEqual([sleep, sleep]);
  });
});
