import fc from 'fast-check';
import { confidenceOf, type KnowledgeFacts } from '../src/introspect/confidence';

const facts = fc.record({
  related: fc.integer({ min: 0, max: 500 }),
  established: fc.integer({ min: 0, max: 500 }),
  averageStrength: fc.double({ min: 0, max: 1, noNaN: true }),
  newestAgeDays: fc.double({ min: 0, max: 5000, noNaN: true }),
  bestSimilarity: fc.double({ min: -1, max: 1, noNaN: true }),
});
const order = { NONE: 0, LOW: 1, MEDIUM: 2, HIGH: 3 };

describe('confidenceOf', () => {
  it('says NONE exactly when nothing relates to the topic', () => {
    fc.assert(fc.property(facts, (f) => (confidenceOf(f).label === 'NONE') === (f.related === 0)));
  });

  it('never lowers the label when more memories relate, all else equal', () => {
    fc.assert(
      fc.property(facts, fc.integer({ min: 1, max: 50 }), (f: KnowledgeFacts, more) => {
        return order[confidenceOf({ ...f, related: f.related + more }).label] >= order[confidenceOf(f).label];
      }),
    );
  });

  it('says HIGH for plenty of strong, fresh, established knowledge and LOW for one weak old memory', () => {
    expect(
      confidenceOf({
        related: 8,
        established: 2,
        averageStrength: 0.7,
        newestAgeDays: 3,
        bestSimilarity: 0.8,
      }).label,
    ).toBe('HIGH');
    expect(
      confidenceOf({
        related: 1,
        established: 0,
        averageStrength: 0.1,
        newestAgeDays: 900,
        bestSimilarity: 0.4,
      }).label,
    ).toBe('LOW');
  });
});
