import fc from 'fast-check';
import {
  cosine,
  loadUseLite,
  loadUseLiteFromPackage,
  normalize,
  releaseWeightBuffer,
  SENTENCE_DIMENSION,
  SentenceEncoder,
  sharedSentenceEncoder,
} from '../src';

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

describe('loading USE-lite', () => {
  type Loaded = { model: { artifacts: { weightData?: unknown } } };

  it("reads the shards into pages of its own, drops them once the weights are in the backend, and embeds exactly as the package's loader", async () => {
    const reference = await loadUseLiteFromPackage();
    const kept = await loadUseLite({ keepWeightBuffer: true });
    const dropped = await loadUseLite();
    const buffer = (kept as unknown as Loaded).model.artifacts.weightData;
    expect(Object.prototype.toString.call(buffer)).toBe('[object ArrayBuffer]');
    expect((buffer as ArrayBuffer).byteLength).toBeGreaterThan(20_000_000);
    expect((dropped as unknown as Loaded).model.artifacts.weightData).toBeUndefined();
    const texts = [
      'my chest hurts and my left arm feels numb',
      'how can I build a calmer bedtime routine',
      'ok',
      'I have been feeling low for weeks, I do not sleep and I have stopped seeing friends. '.repeat(3),
    ];
    // The same batch through each: bit for bit the same numbers.
    const expected = await reference.embed(texts);
    expect(await kept.embed(texts)).toStrictEqual(expected);
    expect(await dropped.embed(texts)).toStrictEqual(expected);
  }, 60_000);

  it('answers the bytes it released, and 0 for a model that holds none', () => {
    const model = { model: { artifacts: { weightData: new ArrayBuffer(16) as unknown } } };
    expect(releaseWeightBuffer(model)).toBe(16);
    expect(model.model.artifacts.weightData).toBeUndefined();
    expect(releaseWeightBuffer(model)).toBe(0);
    expect(releaseWeightBuffer({ embed: async () => [] })).toBe(0);
    expect(
      releaseWeightBuffer({ model: { artifacts: { weightData: [new ArrayBuffer(4), new ArrayBuffer(8)] } } }),
    ).toBe(12);
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

  it('embeds a text it embedded recently without the model, and hands out copies', async () => {
    const calls: string[][] = [];
    const fake = {
      embed: async (input: string[]) => {
        calls.push(input);
        return input.map((t) => [t.length, 1, 0]);
      },
    };
    const cached = new SentenceEncoder({ loadModel: async () => fake, cacheSize: 2 });
    const [a1, b1] = await cached.embed(['a', 'bb']);
    const [b2, c1, a2] = await cached.embed(['bb', 'ccc', 'a']);
    expect(calls).toEqual([['a', 'bb'], ['ccc']]);
    expect(cached.modelTexts).toBe(3);
    expect(b2).toEqual(b1);
    expect(a2).toEqual(a1);
    expect(c1).toEqual(normalize([3, 1, 0]));
    a2[0] = 99;
    expect((await cached.embed(['a']))[0]).toEqual(a1);
    expect(calls).toHaveLength(2);
    // Two entries kept, least recently used out: 'bb' went when 'ccc' came in.
    await cached.embed(['bb']);
    expect(calls[2]).toEqual(['bb']);
  });

  it('answers the same vector for a text whether it came from the cache or the model', async () => {
    const encoder = sharedSentenceEncoder();
    const fresh = new SentenceEncoder({ cacheSize: 0 });
    const text = 'my chest feels tight when I climb stairs';
    const [first] = await encoder.embed([text]);
    const [again] = await encoder.embed([text]);
    const [uncached] = await fresh.embed([text]);
    expect(again).toEqual(first);
    for (let i = 0; i < SENTENCE_DIMENSION; i++) expect(uncached[i]).toBeCloseTo(first[i], 6);
  }, 60_000);
});
