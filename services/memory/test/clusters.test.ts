import fc from 'fast-check';
import { centroid, greedyGroups, medoidIndex } from '../src/reflect/clusters';

const ids = fc.uniqueArray(fc.constantFrom(...'abcdefghijklmnop'.split('')), { minLength: 1, maxLength: 16 });

describe('greedyGroups', () => {
  it('puts every id in at most one group, each group at least minSize and made of its seed and direct neighbours', () => {
    fc.assert(
      fc.property(
        ids.chain((xs) =>
          fc.tuple(
            fc.constant(xs),
            fc.array(fc.tuple(fc.constantFrom(...xs), fc.constantFrom(...xs)), { maxLength: 40 }),
          ),
        ),
        fc.integer({ min: 1, max: 4 }),
        ([xs, edges], minSize) => {
          const nb = new Map<string, string[]>();
          for (const [a, b] of edges) {
            nb.set(a, [...(nb.get(a) ?? []), b]);
            nb.set(b, [...(nb.get(b) ?? []), a]);
          }
          const groups = greedyGroups(xs, nb, minSize);
          const all = groups.flat();
          expect(new Set(all).size).toBe(all.length);
          for (const g of groups) {
            expect(g.length).toBeGreaterThanOrEqual(minSize);
            for (const m of g.slice(1)) expect(nb.get(g[0])).toContain(m);
          }
        },
      ),
    );
  });

  it('does not chain: a~b and b~c with a and c apart gives one group of two', () => {
    const nb = new Map([
      ['a', ['b']],
      ['b', ['a', 'c']],
      ['c', ['b']],
    ]);
    expect(greedyGroups(['a', 'b', 'c'], nb, 2)).toEqual([['a', 'b']]);
  });
});

describe('centroid and medoid', () => {
  it('returns a unit vector and picks the member in the middle', () => {
    const vs = [
      [1, 0],
      [Math.SQRT1_2, Math.SQRT1_2],
      [0, 1],
    ];
    expect(Math.hypot(...centroid(vs))).toBeCloseTo(1, 12);
    expect(medoidIndex(vs)).toBe(1);
  });
});
