import fc from 'fast-check';
import { candidatesFor, passageTitle, rankPassages, titleMatch, tokenize } from '../src';

describe('passage re-ranking by title', () => {
  it('puts the passage whose title asks the question first, over a better-scored passage of a sibling document', () => {
    const ranked = rankPassages('What are the symptoms of acromegaly?', [
      {
        id: 'what-is',
        text: 'What is (are) Acromegaly ?\n\nAcromegaly is a hormonal disorder; its symptoms vary.',
        score: 0.75,
      },
      {
        id: 'symptoms',
        text: 'What are the symptoms of Acromegaly ?\n\nEnlarged hands and feet.',
        score: 0.7,
      },
    ]);
    expect(ranked.map((r) => r.id)).toEqual(['symptoms', 'what-is']);
    expect(ranked[0].titleMatch).toBe(1);
  });

  it('keeps recall order when no title matches, and for passages without a title', () => {
    const ranked = rankPassages('knee pain after running', [
      { id: 'a', text: 'no title here', score: 0.5 },
      { id: 'b', text: 'Insulin storage\n\nKeep pens cool.', score: 0.5 },
      { id: 'c', text: 'Sleep\n\nKeep a routine.', score: 0.4 },
    ]);
    expect(ranked.map((r) => r.id)).toEqual(['a', 'b', 'c']);
  });

  it('folds plurals and ignores stopwords and case', () => {
    expect(tokenize('What are the RISKS of Statins?')).toEqual(['risk', 'statin']);
    expect(titleMatch('risks of statins', 'Statin risk')).toBe(1);
    expect(titleMatch('', 'Statin risk')).toBe(0);
    expect(passageTitle('Title\n\nBody\n\nMore')).toBe('Title');
    expect(passageTitle('Body only')).toBe('');
  });

  it('asks recall for at least 20 and at most 100 candidates', () => {
    expect([1, 3, 10, 50].map(candidatesFor)).toEqual([20, 20, 30, 100]);
  });

  it('returns every passage once, each score at least its recall score (property)', () => {
    const passage = fc.record({
      text: fc.string({ maxLength: 60 }),
      score: fc.double({ min: 0, max: 1, noNaN: true }),
    });
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.array(passage, { maxLength: 12 }), (q, ps) => {
        const ranked = rankPassages(q, ps);
        expect(ranked).toHaveLength(ps.length);
        for (const r of ranked) expect(r.rank).toBeGreaterThanOrEqual(r.score - 1e-12);
        for (let i = 1; i < ranked.length; i++)
          expect(ranked[i - 1].rank).toBeGreaterThanOrEqual(ranked[i].rank);
      }),
    );
  });
});
