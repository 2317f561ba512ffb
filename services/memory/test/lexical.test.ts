import fc from 'fast-check';
import { coverage, idf, orTsquery } from '../src/recall/lexical';

describe('lexical scoring', () => {
  it('weighs rarer terms more and never goes negative', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 ** 6 }), fc.integer({ min: 0, max: 10 ** 6 }), (n, df0) => {
        const df = Math.min(df0, n - 1);
        return idf(df, n) > idf(df + 1, n) && idf(df + 1, n) >= 0;
      }),
    );
  });

  it('keeps coverage within [0, 1], 1 when every term matched', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.double({ min: 0, max: 100, noNaN: true }),
        (m, t) => {
          const c = coverage(Math.min(m, t), t);
          return c >= 0 && c <= 1 && (t === 0 || coverage(t, t) === 1);
        },
      ),
    );
  });

  it('quotes each lexeme in the OR query', () => {
    expect(orTsquery(['metformin', 'dose'])).toBe("'metformin' | 'dose'");
  });
});
