import fc from 'fast-check';
import {
  RED_FLAG_CATEGORIES,
  SEMANTIC_CLASSES,
  classProbabilities,
  indexExemplars,
  detectRedFlag,
  detectRedFlagRule,
  loadLabelledFile,
  type RedFlagCategory,
  type SemanticModel,
} from '../../src/safety';

// Emergencies phrased so that they fit after "I have", "I do not have", "years ago I had".
const EMERGENCIES: Partial<Record<RedFlagCategory, readonly string[]>> = {
  stroke_fast: [
    'a drooping face',
    'slurred speech',
    'numbness on one side of my body',
    'sudden weakness on one side',
  ],
  heart_attack: [
    'crushing chest pain',
    'severe chest pain',
    'chest pain spreading to my left arm',
    'chest pain and a cold sweat',
  ],
  breathing_difficulty: ['trouble breathing', 'difficulty breathing', 'a bad asthma attack'],
  anaphylaxis: ['a swollen tongue', 'a severe allergic reaction', 'throat swelling after eating peanuts'],
  severe_bleeding: ['heavy bleeding', 'bleeding that will not stop', 'massive blood loss'],
  suicidal_intent: ['suicidal thoughts', 'thoughts of killing myself', 'a plan to end my life'],
  self_harm: ['urges to self harm', 'self harm cuts'],
  overdose_poisoning: ['an overdose'],
  sepsis: ['sepsis', 'septic shock'],
  meningitis: ['meningitis', 'a stiff neck and a high fever', 'a rash that does not fade under a glass'],
  seizure: ['a seizure lasting ten minutes', 'seizures one after another'],
  pregnancy_emergency: ['heavy bleeding at 34 weeks pregnant'],
};
const LISTED = Object.entries(EMERGENCIES).flatMap(([category, phrases]) =>
  phrases!.map((phrase) => ({ category: category as RedFlagCategory, phrase })),
);

const PRESENT = ['right now I have {x}', 'I have {x}', 'help, I have {x}'];
const NEGATED = [
  'I do not have {x}',
  "I don't have {x}",
  'no {x}',
  'denies {x}',
  'I have never had {x}',
  'there is no {x}',
  "I haven't had any {x}",
  'without any {x}',
];
const HISTORICAL = [
  'years ago I had {x}',
  'back in 2015 I had {x}',
  'in 2009 I had {x}',
  'as a child I had {x}',
  'I have a history of {x}',
  'last year I had {x}',
  'I had {x} five years ago',
];

const fill = (template: string, phrase: string): string => template.replace('{x}', phrase);
const casing = fc.array(fc.boolean(), { minLength: 1, maxLength: 64 });
const applyCasing = (text: string, flips: boolean[]): string =>
  [...text].map((ch, i) => (flips[i % flips.length] ? ch.toUpperCase() : ch.toLowerCase())).join('');
const spacing = fc.array(fc.constantFrom(' ', '  ', '\t', ' \t '), { minLength: 1, maxLength: 16 });
const applySpacing = (text: string, runs: string[]): string =>
  text.split(' ').reduce((acc, word, i) => `${acc}${runs[i % runs.length]}${word}`);

describe('red-flag detector properties', () => {
  it('fires on every listed emergency stated in the present (so the negative properties below can fail)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...LISTED),
        fc.constantFrom(...PRESENT),
        ({ category, phrase }, template) => {
          expect(detectRedFlag(fill(template, phrase))?.category).toBe(category);
        },
      ),
    );
  });

  it('stops firing when a listed emergency is prefixed with a negation template', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...LISTED),
        fc.constantFrom(...NEGATED),
        casing,
        ({ phrase }, template, flips) => {
          expect(detectRedFlag(applyCasing(fill(template, phrase), flips))).toBeNull();
        },
      ),
    );
  });

  it('stops firing when a listed emergency is framed as past history', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...LISTED),
        fc.constantFrom(...HISTORICAL),
        spacing,
        ({ phrase }, template, runs) => {
          expect(detectRedFlag(applySpacing(fill(template, phrase), runs))).toBeNull();
        },
      ),
    );
  });

  it('gives the same verdict whatever the letter case and the runs of spaces between words', () => {
    const labelled = loadLabelledFile('labelled.jsonl');
    fc.assert(
      fc.property(fc.constantFrom(...labelled), casing, spacing, (c, flips, runs) => {
        const expected = detectRedFlag(c.text, c.context)?.category ?? null;
        const varied = applySpacing(applyCasing(c.text, flips), runs);
        expect(detectRedFlag(varied, c.context)?.category ?? null).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on arbitrary input and always answers null or a well-formed hit', () => {
    const vocabulary = fc.constantFrom(
      ...'i my he not no chest pain breathe cannot stroke face drooping seizure pills 30 took years ago if what , . ? ! \u2019 lol baby weeks pregnant bleeding kill myself'.split(
        ' ',
      ),
    );
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc.array(vocabulary, { maxLength: 40 }).map((w) => w.join(' ')),
    );
    fc.assert(
      fc.property(
        text,
        fc.array(fc.oneof(text, fc.constant(undefined as unknown as string)), { maxLength: 5 }),
        (latest, recent) => {
          const hit = detectRedFlag(latest, recent);
          // The screen's view of the rules is the same hit, with whether it rests on a firm cue (ADR 0419).
          const ruled = detectRedFlagRule(latest, recent);
          expect(ruled?.hit ?? null).toEqual(hit);
          if (hit === null) return;
          expect(typeof ruled!.firm).toBe('boolean');
          expect(RED_FLAG_CATEGORIES).toContain(hit.category);
          expect(hit.reason).toBe('emergency_red_flag');
          expect(hit.message.length).toBeGreaterThan(40);
          expect(hit.matched.length).toBeGreaterThan(0);
          expect(hit.matched.length).toBeLessThanOrEqual(80);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('still reads a cry for help typed after a very long paste, and tolerates non-string input', () => {
    const paste = 'lorem ipsum dolor sit amet '.repeat(10_000);
    expect(detectRedFlag(`${paste}\nI cannot breathe`)?.category).toBe('breathing_difficulty');
    expect(detectRedFlag(undefined as unknown as string)).toBeNull();
    expect(detectRedFlag('I took 30 pills', 'nope' as unknown as string[])?.category).toBe(
      'overdose_poisoning',
    );
  });
});

describe('the semantic stage neighbour vote', () => {
  // The plain definition: every exemplar's dot product, sorted, the k best weighted by a softmax over similarity.
  function referenceVote(model: SemanticModel, v: number[]): number[] {
    const d = model.dimension;
    const sims = model.exemplarClasses.map((cls, e) => {
      let s = 0;
      for (let i = 0; i < d; i++) s += model.exemplars![e * d + i]! * v[i]!;
      return { s, cls };
    });
    sims.sort((a, b) => b.s - a.s);
    const top = sims.slice(0, Math.min(model.knn.k, sims.length));
    const out = new Array<number>(model.classes.length).fill(0);
    let total = 0;
    for (const { s, cls } of top) {
      const w = Math.exp((s - top[0]!.s) * model.knn.temperature);
      out[cls]! += w;
      total += w;
    }
    return out.map((w) => w / total);
  }

  /** A model whose linear half is uniform (zero weights) and whose n exemplars are pseudo-random from `seed`. */
  function randomVoteModel(d: number, k: number, n: number, seed: number) {
    let state = seed;
    const next = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
    const classes = [...SEMANTIC_CLASSES];
    const model: SemanticModel = {
      dimension: d,
      classes,
      weights: classes.map(() => new Array<number>(d).fill(0)),
      bias: classes.map(() => 0),
      messageThreshold: 0.5,
      sentenceThreshold: 0.5,
      vetoBelow: 0,
      knn: { k, temperature: 20 },
      exemplarClasses: Array.from({ length: n }, (_, e) => e % classes.length),
      exemplarScales: new Array<number>(n).fill(1),
      exemplars: Float32Array.from({ length: n * d }, next),
      trainedOn: 'test',
    };
    return { model, next, classes };
  }

  it('equals the sorted k-nearest vote for any exemplars, dimension (also not a multiple of 4) and k', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 11 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 0, max: 1 << 30 }),
        (d, k, n, q, seed) => {
          const { model, next, classes } = randomVoteModel(d, k, n, seed);
          const queries = Array.from({ length: q }, () => Array.from({ length: d }, next));
          const got = classProbabilities(model, queries);
          queries.forEach((v, j) => {
            // The linear half is uniform here (zero weights), so the vote is twice the mean minus it.
            const vote = got[j]!.map((p) => 2 * p - 1 / classes.length);
            referenceVote(model, v).forEach((p, c) => expect(vote[c]).toBeCloseTo(p, 6));
          });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('reads the same vote from the tensor engine index as from the JavaScript loop (ADR 0018)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 11 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 0, max: 1 << 30 }),
        async (d, k, n, seed) => {
          const { model, next, classes } = randomVoteModel(d, k, n, seed);
          const query = Array.from({ length: d }, next);
          // float32 sums in another order: skip a k-th neighbour tied to within 1e-5 with the next one.
          const sims = model.exemplarClasses
            .map((_, e) => query.reduce((a, x, i) => a + x * model.exemplars![e * d + i]!, 0))
            .sort((a, b) => b - a);
          fc.pre(k >= n || sims[k - 1]! - sims[k]! > 1e-5);
          const expected = referenceVote(model, query);
          await indexExemplars(model, { release: true });
          expect(model.exemplars).toBeUndefined();
          expect(model.exemplarIndex?.count).toBe(n);
          const vote = classProbabilities(model, [query])[0]!.map((p) => 2 * p - 1 / classes.length);
          expected.forEach((p, c) => expect(vote[c]).toBeCloseTo(p, 4));
        },
      ),
      { numRuns: 100 },
    );
  });
});
