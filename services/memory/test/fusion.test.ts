import fc from 'fast-check';
import {
  contextOf,
  questionStatement,
  DEFAULT_FUSION,
  fuse,
  scoreCandidate,
  withContext,
  type CandidateEvidence,
} from '../src/recall/fusion';
import { reinforcedStrength, TIERS } from '../src/memories/memory.model';

const NOW = new Date('2030-01-01T00:00:00Z');
const DAY = 86_400_000;

const rank = fc.option(fc.integer({ min: 1, max: 500 }), { nil: undefined });
const candidate = fc.record({
  id: fc.string({ minLength: 1, maxLength: 8 }),
  tier: fc.constantFrom(...TIERS),
  createdAt: fc.integer({ min: 0, max: 5000 }).map((d) => new Date(NOW.getTime() - d * DAY)),
  strength: fc.double({ min: 0, max: 1, noNaN: true }),
  vectorRank: rank,
  textRank: rank,
  vectorSimilarity: fc.double({ min: -1, max: 1, noNaN: true }),
  textScore: fc.double({ min: 0, max: 1, noNaN: true }),
});

describe('fused scoring', () => {
  it('keeps relevance within [0, 1] and the score non-negative', () => {
    fc.assert(
      fc.property(candidate, (c) => {
        const s = scoreCandidate(c, NOW);
        return s.relevance >= 0 && s.relevance <= 1 + 1e-12 && s.score >= 0;
      }),
    );
  });

  it('gives the top relevance to an identical memory that has every query term', () => {
    const s = scoreCandidate(
      {
        id: 'a',
        tier: 'episodic',
        createdAt: NOW,
        strength: 0.5,
        vectorRank: 1,
        vectorSimilarity: 1,
        textRank: 1,
        textScore: 1,
      },
      NOW,
    );
    expect(s.relevance).toBeCloseTo(1, 12);
  });

  it('raises the score with similarity, all else equal', () => {
    fc.assert(
      fc.property(candidate, fc.double({ min: 0, max: 0.99, noNaN: true }), (c, sim) => {
        return (
          scoreCandidate({ ...c, vectorSimilarity: sim + 0.01 }, NOW).score >
          scoreCandidate({ ...c, vectorSimilarity: sim }, NOW).score
        );
      }),
    );
  });

  it('raises the score with the lexical score, all else equal', () => {
    fc.assert(
      fc.property(candidate, fc.double({ min: 0, max: 0.99, noNaN: true }), (c, lex) => {
        return (
          scoreCandidate({ ...c, textScore: lex + 0.01 }, NOW).score >
          scoreCandidate({ ...c, textScore: lex }, NOW).score
        );
      }),
    );
  });

  it('bounds the recency penalty so a years-old memory keeps most of its score', () => {
    fc.assert(
      fc.property(candidate, (c) => {
        const fresh = scoreCandidate({ ...c, createdAt: NOW }, NOW).score;
        const old = scoreCandidate(c, NOW).score;
        return old <= fresh + 1e-12 && old >= fresh * (1 - DEFAULT_FUSION.recencyWeight) - 1e-12;
      }),
    );
  });

  it('lets a relevant ten-year-old memory outrank a fresh one that only one search found', () => {
    const old = {
      id: 'old',
      tier: 'episodic' as const,
      createdAt: new Date(NOW.getTime() - 3650 * DAY),
      strength: 0.5,
      vectorRank: 1,
      vectorSimilarity: 0.8,
      textRank: 1,
      textScore: 1,
    };
    const fresh = {
      id: 'fresh',
      tier: 'episodic' as const,
      createdAt: NOW,
      strength: 0.5,
      vectorRank: 2,
      vectorSimilarity: 0.6,
      textScore: 0,
    };
    expect(fuse([fresh, old], NOW, 2).map((c) => c.id)).toEqual(['old', 'fresh']);
  });

  it('raises the score with strength, all else equal', () => {
    fc.assert(
      fc.property(candidate, fc.double({ min: 0, max: 0.99, noNaN: true }), (c, s) => {
        const c2 = { ...c, vectorSimilarity: Math.max(0.1, c.vectorSimilarity) };
        return (
          scoreCandidate({ ...c2, strength: s + 0.01 }, NOW).score >
          scoreCandidate({ ...c2, strength: s }, NOW).score
        );
      }),
    );
  });
});

describe('fuse', () => {
  it('returns at most topK results, best first, leaving out memories no search found', () => {
    fc.assert(
      fc.property(fc.array(candidate, { maxLength: 40 }), fc.integer({ min: 0, max: 50 }), (cs, k) => {
        const out = fuse(cs, NOW, k);
        const found = cs.filter((c) => c.vectorRank !== undefined || c.textRank !== undefined).length;
        const sorted = out.every((r, i) => i === 0 || out[i - 1].signals.score >= r.signals.score);
        return (
          out.length === Math.min(k, found) &&
          sorted &&
          out.every((r) => r.vectorRank !== undefined || r.textRank !== undefined)
        );
      }),
    );
  });

  it('orders the same candidates the same way whatever order they arrive in', () => {
    const unique = fc.uniqueArray(candidate, { selector: (c) => c.id, maxLength: 30 });
    fc.assert(
      fc.property(
        unique.chain((cs) => fc.tuple(fc.constant(cs), fc.shuffledSubarray(cs, { minLength: cs.length }))),
        ([a, b]) => {
          const ids = (cs: CandidateEvidence[]) => fuse(cs, NOW, 100).map((c) => c.id);
          expect(ids(b)).toEqual(ids(a));
        },
      ),
    );
  });
});

describe('reinforcedStrength', () => {
  it('moves strength up on a positive outcome and down on a negative one, staying within [0, 1]', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0.01, max: 10, noNaN: true }),
        (s, w) => {
          const up = reinforcedStrength(s, 'POSITIVE', w);
          const down = reinforcedStrength(s, 'NEGATIVE', w);
          return (
            up >= s &&
            down <= s &&
            up <= 1 &&
            down >= 0 && // Strictly, except where floating point cannot hold a smaller step (next to the bounds).
            (s > 1 - 1e-9 || up > s) &&
            (s < 1e-300 || down < s)
          );
        },
      ),
    );
  });
});

describe('conversation context (ADR 0315)', () => {
  const at = (id: string, sim: number, extra: Partial<CandidateEvidence> = {}): CandidateEvidence => ({
    id,
    tier: 'episodic',
    createdAt: NOW,
    strength: 0.5,
    vectorSimilarity: sim,
    textScore: 0,
    ...extra,
  });

  it('gives each memory of a link the best base relevance of its neighbours, in both directions', () => {
    const rel: Record<string, number> = { a: 0.9, b: 0.1, c: 0.4 };
    const ctx = contextOf(
      [
        ['a', 'b'],
        ['c', 'b'],
      ],
      (id) => rel[id],
    );
    expect(Object.fromEntries(ctx)).toEqual({ a: 0.1, b: 0.9, c: 0.1 });
  });

  it('lifts a weak reply next to a strong match above an unrelated memory, and never lowers a score', () => {
    const question = at('q', 0.9, { vectorRank: 1 });
    const reply = { ...at('r', 0.2), anchorId: 'q' };
    const other = at('o', 0.35, { vectorRank: 2 });
    const on = { ...DEFAULT_FUSION, contextWeight: 0.5 };
    const ranked = fuse(withContext([question, other], [reply], on), NOW, 3, on).map((h) => h.id);
    expect(ranked).toEqual(['q', 'r', 'o']);
    expect(fuse([question, other], NOW, 3, on).map((h) => h.id)).toEqual(['q', 'o']);
    fc.assert(
      fc.property(candidate, fc.double({ min: 0, max: 1, noNaN: true }), (c, context) => {
        return scoreCandidate({ ...c, context }, NOW, on).score >= scoreCandidate(c, NOW, on).score - 1e-12;
      }),
    );
  });

  it('has no effect with contextWeight 0', () => {
    fc.assert(
      fc.property(candidate, fc.double({ min: 0, max: 1, noNaN: true }), (c, context) => {
        const s = { ...DEFAULT_FUSION, contextWeight: 0 };
        return scoreCandidate({ ...c, context }, NOW, s).score === scoreCandidate(c, NOW, s).score;
      }),
    );
  });
});

describe('questionStatement (ADR 0320)', () => {
  it('drops the question frame and mark, leaving the words a remembered sentence would hold', () => {
    expect(questionStatement('When did Maya buy the car?')).toBe('Maya buy the car');
    expect(questionStatement('What kind of car was Dev practising with?')).toBe('Dev practising with');
    expect(questionStatement('Who looked after Rocket?')).toBe('looked after Rocket');
  });

  it('leaves a query without a frame as it was, and never returns an empty query', () => {
    expect(questionStatement('Tell me about Otto')).toBe('Tell me about Otto');
    expect(questionStatement('What?')).toBe('What?');
  });
});
