import fc from 'fast-check';
import { MAX_PARTS, subQueries } from './query-plan';

describe('query decomposition (ADR 0316)', () => {
  it('splits a compound question at the joint before a new question word and carries the names over', () => {
    expect(
      subQueries('Which painkiller did Jonah have to stop a week before his operation, and what had it replaced?'),
    ).toEqual(['Which painkiller did Jonah have to stop a week before his operation', 'what had it replaced Jonah']);
    expect(subQueries("What is the name of Jonah's physiotherapist and how did she behave at his 10k race?")).toEqual([
      "What is the name of Jonah's physiotherapist",
      'how did she behave at his 10k race Jonah',
    ]);
  });

  it('leaves a simple question whole', () => {
    expect(subQueries('What kind of car was Dev practising fitting the baby car seat into?')).toEqual([]);
    expect(subQueries('Did Tom and Ann move house?')).toEqual([]);
    expect(subQueries('')).toEqual([]);
  });

  it('never returns one part, more than MAX_PARTS, or a part under three words', () => {
    const word = fc.constantFrom('what', 'who', 'and', ',', 'Maya', 'cat', 'the', 'did', 'see', 'how', ';', 'Leeds');
    fc.assert(
      fc.property(fc.array(word, { maxLength: 40 }), (words) => {
        const parts = subQueries(words.join(' '));
        return (
          (parts.length === 0 || (parts.length >= 2 && parts.length <= MAX_PARTS)) &&
          parts.every((p) => p.split(/\s+/).length >= 3)
        );
      }),
    );
  });
});
