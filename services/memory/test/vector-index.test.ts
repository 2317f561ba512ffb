import fc from 'fast-check';
import { vectorLiteral, vectorType } from '../src/db/vector-index';

describe('vectorLiteral', () => {
  it('names exactly the float32 components the full double text rounds to', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 1, maxLength: 64 }),
        (v) => {
          const literal = vectorLiteral(v);
          const parsed = literal.slice(1, -1).split(',').map(Number);
          // Zero's sign changes no distance (and JSON text drops it), so zeros compare as +0.
          const f32 = (xs: number[]) => xs.map((x) => Math.fround(x) || 0);
          expect(f32(parsed)).toEqual(f32(JSON.parse(JSON.stringify(v)) as number[]));
        },
      ),
    );
  });

  it('refuses a dimension that is not a positive integer up to 16000', () => {
    expect(vectorType(512)).toBe('vector(512)');
    for (const bad of [0, -1, 1.5, 16001, Number.NaN]) expect(() => vectorType(bad)).toThrow(RangeError);
  });
});
