import fc from 'fast-check';
import { bestFirst } from '../src/recall/lexical-index';

const byScoreThenId = (a: { id: string; score: number }, b: { id: string; score: number }) =>
  b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

describe('bestFirst (the cut of the in-process full-text search)', () => {
  it('returns the first `pool` candidates of the full (score descending, id ascending) order', () => {
    fc.assert(
      fc.property(
        // Few distinct scores and ids, so that most runs cut through a tie.
        fc.uniqueArray(
          fc.record({ id: fc.stringMatching(/^m[0-9]{1,3}$/), score: fc.constantFrom(0.25, 0.5, 0.75, 1) }),
          { selector: (c) => c.id, maxLength: 60 },
        ),
        fc.integer({ min: 1, max: 70 }),
        (found, pool) => {
          const expected = [...found].sort(byScoreThenId).slice(0, pool);
          expect(bestFirst([...found], pool)).toEqual(expected);
        },
      ),
      { numRuns: 500 },
    );
  });
});
