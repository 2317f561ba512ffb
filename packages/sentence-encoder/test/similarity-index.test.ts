import fc from 'fast-check';
import { createSimilarityIndex } from '../src';

// The similarity index (ADR 0018): the tensor engine's matrix multiply gives each query's dot product with every
// vector, as a plain loop would (to float32 rounding).

function columnsOf(rows: number[][], dimension: number): Float32Array {
  const out = new Float32Array(rows.length * dimension);
  rows.forEach((row, r) => row.forEach((x, i) => (out[i * rows.length + r] = x)));
  return out;
}

describe('createSimilarityIndex', () => {
  it('gives the dot product of each query with every vector, for any sizes', async () => {
    const value = fc.float({ min: -1, max: 1, noNaN: true, noDefaultInfinity: true });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 70 }).chain((d) =>
          fc.record({
            d: fc.constant(d),
            rows: fc.array(fc.array(value, { minLength: d, maxLength: d }), { minLength: 1, maxLength: 30 }),
            queries: fc.array(fc.array(value, { minLength: d, maxLength: d }), {
              minLength: 0,
              maxLength: 5,
            }),
          }),
        ),
        async ({ d, rows, queries }) => {
          const index = await createSimilarityIndex(columnsOf(rows, d), rows.length, d);
          try {
            const sims = index.similarities(queries);
            expect(sims).toHaveLength(queries.length);
            queries.forEach((q, j) => {
              expect(sims[j]).toHaveLength(rows.length);
              rows.forEach((row, r) => {
                const dot = row.reduce((a, x, i) => a + x * q[i]!, 0);
                expect(Math.abs(sims[j]![r]! - dot)).toBeLessThan(1e-4 * (1 + d));
              });
            });
          } finally {
            index.dispose();
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('reads a short query as zero-padded', async () => {
    const index = await createSimilarityIndex(
      columnsOf(
        [
          [1, 2, 3],
          [4, 5, 6],
        ],
        3,
      ),
      2,
      3,
    );
    expect(Array.from(index.similarities([[1, 1]])[0]!)).toEqual([3, 9]);
    index.dispose();
  });

  it('refuses a matrix of the wrong size or shape, and answers nothing once disposed', async () => {
    await expect(createSimilarityIndex(new Float32Array(5), 2, 3)).rejects.toThrow(/expected 6 values/);
    await expect(createSimilarityIndex(new Float32Array(0), 0, 3)).rejects.toThrow(RangeError);
    const index = await createSimilarityIndex(new Float32Array([1, 0]), 1, 2);
    index.dispose();
    expect(() => index.similarities([[1, 0]])).toThrow(/disposed/);
  });
});
