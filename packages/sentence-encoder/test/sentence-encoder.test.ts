import fc from 'fast-check';
import { cosine, normalize, SENTENCE_DIMENSION, sharedSentenceEncoder } from '../src';

describe('SentenceEncoder (Universal Sentence Encoder lite from the npm package)', () => {
  const encoder = sharedSentenceEncoder();

  it('answers one 512-d unit vector per text, in order', async () => {
    const vectors = await encoder.embed(['my knee hurts after running', 'how do I appeal a denied claim']);
    expect(vectors).toHaveLength(2);
    for (const v of vectors) {
      expect(v).toHaveLength(SENTENCE_DIMENSION);
      expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    }
  }, 60_000);

  it('places a paraphrase nearer than an unrelated sentence', async () => {
    const [a, para, other] = await encoder.embed([
      'my mother died last month and I cannot stop crying',
      'I am grieving since my mum passed away',
      'how do I reschedule my dentist appointment',
    ]);
    expect(cosine(a, para)).toBeGreaterThan(cosine(a, other) + 0.1);
  }, 60_000);

  it('answers nothing for no text without loading anything', async () => {
    await expect(encoder.embed([])).resolves.toEqual([]);
  });

  it('is one instance per process', () => {
    expect(sharedSentenceEncoder()).toBe(encoder);
  });
});

describe('vector helpers', () => {
  it('normalize gives unit length, keeps zero vectors, and cosine of a vector with itself is 1', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1e3, max: 1e3, noNaN: true }), { minLength: 1, maxLength: 32 }),
        (v) => {
          const n = normalize(v);
          const len = Math.hypot(...n);
          if (v.every((x) => x === 0)) expect(len).toBe(0);
          else if (Math.hypot(...v) > 1e-9) {
            expect(len).toBeCloseTo(1, 6);
            expect(cosine(v, v)).toBeCloseTo(1, 6);
          }
        },
      ),
    );
  });
});
