import fc from 'fast-check';
import {
  aspectsOf,
  candidatesFor,
  passageTitle,
  rankDocuments,
  rankPassages,
  titleMatch,
  titleSubject,
  tokenize,
} from '../src';

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

describe('passage re-ranking by the aspect asked (ADR 0424)', () => {
  const gallstones = [
    {
      id: 'symptoms',
      text: 'What are the symptoms of Gallstones ?\n\nMany people have no symptoms.',
      score: 0.6,
    },
    { id: 'other-treatment', text: 'Treating kidney stones\n\nDrink more water.', score: 0.58 },
    { id: 'diagnosis', text: 'How to diagnose Gallstones ?\n\nAn ultrasound shows them.', score: 0.56 },
    {
      id: 'treatment',
      text: 'What are the treatments for Gallstones ?\n\nSurgery removes the gallbladder.',
      score: 0.52,
    },
  ];

  it("promotes the top subject's passage whose title answers the aspect asked, with the top's score", () => {
    // 'other-treatment' answers the aspect and scores higher, but its subject is another.
    const q = "they found gallstones but they don't hurt. should I have them out?";
    const ranked = rankPassages(q, gallstones);
    expect(ranked.map((r) => r.id).slice(0, 2)).toEqual(['treatment', 'symptoms']);
    expect(ranked).toHaveLength(4);
    expect(ranked[0].rank).toBe(ranked[1].rank);
  });

  it('leaves the ranking alone when the question names no aspect, the top answers it, or the match is too far down', () => {
    const order = (q: string, ps = gallstones) => rankPassages(q, ps).map((r) => r.id);
    expect(order('gallstones')[0]).toBe('symptoms');
    expect(order('gallstones: what are the signs?')[0]).toBe('symptoms');
    const far = gallstones.map((p) => (p.id === 'treatment' ? { ...p, score: 0.4 } : p));
    expect(order('gallstones, should I have them out?', far)[0]).toBe('symptoms');
  });

  it('reads lay phrasings as aspects and a title without them as its subject', () => {
    expect([...aspectsOf('can tablets sort it out or do they operate?')]).toEqual(['treatment']);
    expect([...aspectsOf('is it catching?')]).toEqual(['contagion']);
    expect([...aspectsOf('will it ever go away?')]).toEqual(['outlook']);
    expect([...aspectsOf('what should I eat?')]).toEqual(['diet']);
    expect([...aspectsOf('Gallstones')]).toEqual([]);
    expect(titleSubject('What are the treatments for Gallstones ?')).toBe('gallstone');
    expect(titleSubject('How to diagnose Gallstones ?')).toBe('gallstone');
  });
});

describe('knowledge-base results by document (ADR 0435)', () => {
  const doc = (p: { id: string }) => p.id.split(':')[0];

  it('keeps one passage per document, the best, with the re-ranked order', () => {
    const ranked = rankDocuments(
      'knee pain',
      [
        { id: 'a:0', text: 'Knee pain\n\nRest and ice.', score: 0.6 },
        { id: 'a:1', text: 'Knee pain\n\nSee a physiotherapist.', score: 0.5 },
        { id: 'b:0', text: 'Hip pain\n\nStretch.', score: 0.55 },
      ],
      doc,
    );
    expect(ranked.map((r) => r.id)).toEqual(['a:0', 'b:0']);
  });

  it('lifts a subject several recalled passages share over a lone passage that scored a little higher', () => {
    const passages = [
      { id: 'lone:0', text: 'Travel vaccinations\n\nBook them early.', score: 0.62 },
      { id: 'gout-what:0', text: 'What is Gout ?\n\nA kind of arthritis.', score: 0.6 },
      { id: 'gout-treat:0', text: 'What are the treatments for Gout ?\n\nMedicines and diet.', score: 0.58 },
    ];
    expect(rankPassages('my big toe is swollen and hot', passages)[0].id).toBe('lone:0');
    const ranked = rankDocuments('my big toe is swollen and hot', passages, doc);
    expect(ranked.map((r) => r.id)).toEqual(['gout-what:0', 'gout-treat:0', 'lone:0']);
    expect(ranked[0].support).toBeCloseTo(0.59, 10);
    // Without the subject's weight it is the passage ranking, one per document.
    expect(rankDocuments('my big toe is swollen and hot', passages, doc, 0).map((r) => r.id)).toEqual([
      'lone:0',
      'gout-what:0',
      'gout-treat:0',
    ]);
  });

  it('returns each document once, best first, from the passages given (property)', () => {
    const passage = fc.record({
      id: fc.tuple(fc.constantFrom('a', 'b', 'c', 'd'), fc.nat(3)).map(([d, n]) => `${d}:${n}`),
      text: fc
        .tuple(fc.constantFrom('Gout', 'What is Gout ?', 'Knee pain', ''), fc.string({ maxLength: 30 }))
        .map(([t, b]) => (t ? `${t}\n\n${b}` : b)),
      score: fc.double({ min: 0, max: 1, noNaN: true }),
    });
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.array(passage, { maxLength: 12 }), (q, ps) => {
        const ranked = rankDocuments(q, ps, doc);
        expect(ranked.map(doc).sort()).toEqual([...new Set(ps.map(doc))].sort());
        for (const r of ranked) expect(ps.some((p) => p.id === r.id && p.text === r.text)).toBe(true);
        for (let i = 1; i < ranked.length; i++)
          expect(ranked[i - 1].rank).toBeGreaterThanOrEqual(ranked[i].rank);
      }),
    );
  });
});
