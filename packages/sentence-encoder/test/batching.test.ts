import fc from 'fast-check';
import { normalize, planBatches, SentenceEncoder } from '../src';

/** A model that maps a text to [length, code of its first character, 1] and records each call. */
function fakeModel(fail: (text: string) => boolean = () => false) {
  const calls: string[][] = [];
  return {
    calls,
    embed: async (input: string[]) => {
      calls.push([...input]);
      if (input.some(fail)) throw new Error('the model cannot embed that');
      return input.map((t) => [t.length, t.charCodeAt(0), 1]);
    },
  };
}
const expected = (t: string) => normalize([t.length, t.charCodeAt(0), 1]);

describe('SentenceEncoder batching of concurrent calls', () => {
  it('embeds calls made together in one model run and gives each call its own vectors, in its own order', async () => {
    const model = fakeModel();
    const encoder = new SentenceEncoder({ loadModel: async () => model, cacheSize: 0 });
    const asked = [['alpha', 'be'], ['gamma'], ['delta', 'alpha'], ['e']];
    const answers = await Promise.all(asked.map((texts) => encoder.embed(texts)));
    expect(encoder.modelCalls).toBe(1);
    expect(model.calls).toHaveLength(1);
    // 'alpha' asked twice, sent once.
    expect([...model.calls[0]!].sort()).toEqual(['alpha', 'be', 'delta', 'e', 'gamma']);
    answers.forEach((vectors, i) => expect(vectors).toEqual(asked[i]!.map(expected)));
  });

  it('fails only the call whose text the model cannot embed; the others get their vectors', async () => {
    const model = fakeModel((t) => t === 'poison');
    const encoder = new SentenceEncoder({ loadModel: async () => model, cacheSize: 0 });
    const [ok1, bad, ok2] = await Promise.allSettled([
      encoder.embed(['fine']),
      encoder.embed(['also here', 'poison']),
      encoder.embed(['well']),
    ]);
    expect(ok1).toEqual({ status: 'fulfilled', value: [expected('fine')] });
    expect(ok2).toEqual({ status: 'fulfilled', value: [expected('well')] });
    expect(bad).toMatchObject({ status: 'rejected', reason: { message: 'the model cannot embed that' } });
    // The shared run failed, then each call ran alone.
    expect(model.calls.slice(-3).map((c) => [...c].sort())).toEqual([
      ['fine'],
      ['also here', 'poison'],
      ['well'],
    ]);
  });

  it('rejects every waiting call when the model cannot load, and loads again on the next call', async () => {
    let attempts = 0;
    const model = fakeModel();
    const encoder = new SentenceEncoder({
      loadModel: async () => {
        attempts++;
        if (attempts === 1) throw new Error('weights missing');
        return model;
      },
      cacheSize: 0,
    });
    const settled = await Promise.allSettled([encoder.embed(['a']), encoder.embed(['b'])]);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected']);
    expect(settled[0]).toMatchObject({ reason: { name: 'SentenceEncoderUnavailableError' } });
    await expect(encoder.embed(['a'])).resolves.toEqual([expected('a')]);
  });

  it('batches the calls that arrive while the model is busy into the next run', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const calls: string[][] = [];
    const encoder = new SentenceEncoder({
      loadModel: async () => ({
        embed: async (input: string[]) => {
          calls.push([...input]);
          if (calls.length === 1) await gate;
          return input.map((t) => [t.length, 1, 0]);
        },
      }),
      cacheSize: 0,
    });
    const first = encoder.embed(['first']);
    await new Promise((r) => setImmediate(r));
    const later = [encoder.embed(['second']), encoder.embed(['third']), encoder.embed(['fourth'])];
    release();
    await Promise.all([first, ...later]);
    expect(calls.map((c) => [...c].sort())).toEqual([['first'], ['fourth', 'second', 'third']]);
  });

  it('splits a run by length so that short texts are not padded to a long one', async () => {
    const model = fakeModel();
    const encoder = new SentenceEncoder({ loadModel: async () => model, cacheSize: 0, callOverhead: 10 });
    const long = 'x'.repeat(200);
    await Promise.all([encoder.embed(['ab']), encoder.embed([long]), encoder.embed(['cd'])]);
    expect(model.calls).toEqual([['ab', 'cd'], [long]]);
  });
});

describe('planBatches', () => {
  it('keeps every call within maxPadded (texts x longest), except a text longer than that, which goes alone', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 2000 }),
        (lengths, overhead, maxBatch, maxPadded) => {
          const plan = planBatches(lengths, { overhead, maxBatch, maxPadded });
          expect(plan.flat().sort((a, b) => a - b)).toEqual(lengths.map((_, i) => i));
          for (const call of plan) {
            expect(call.length).toBeLessThanOrEqual(maxBatch);
            const padded = call.length * Math.max(1, ...call.map((i) => lengths[i]!));
            if (call.length > 1) expect(padded).toBeLessThanOrEqual(maxPadded);
          }
        },
      ),
    );
  });

  it('plans as before when the cap is not reached', () => {
    const lengths = [5, 40, 12, 200, 90, 7, 33];
    expect(planBatches(lengths, { overhead: 96, maxBatch: 32, maxPadded: 4096 })).toEqual(
      planBatches(lengths, { overhead: 96, maxBatch: 32 }),
    );
    expect(planBatches([100, 100, 100, 100], { overhead: 1000, maxBatch: 32, maxPadded: 250 })).toEqual([
      [0, 1],
      [2, 3],
    ]);
  });

  it('covers every text once, keeps within the batch size, and is never dearer than one call per text or one call for all', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 1, max: 40 }),
        (lengths, overhead, maxBatch) => {
          const plan = planBatches(lengths, { overhead, maxBatch });
          expect(plan.flat().sort((a, b) => a - b)).toEqual(lengths.map((_, i) => i));
          for (const call of plan) expect(call.length).toBeLessThanOrEqual(maxBatch);
          const cost = (calls: number[][]) =>
            calls.reduce((s, c) => s + overhead + c.length * Math.max(1, ...c.map((i) => lengths[i]!)), 0);
          expect(cost(plan)).toBeLessThanOrEqual(cost(lengths.map((_, i) => [i])));
          if (lengths.length <= maxBatch)
            expect(cost(plan)).toBeLessThanOrEqual(cost([lengths.map((_, i) => i)]));
        },
      ),
    );
  });
});
