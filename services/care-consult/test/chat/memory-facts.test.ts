import fc from 'fast-check';
import { extractFacts, isQuestion } from '../../src/tools/memory-facts';

describe('which statements are worth remembering', () => {
  it.each([
    ["I'm allergic to penicillin and take metformin 500 mg every morning", ['allergy', 'medicine']],
    ['I take lisinopril 10 mg at night.', ['medicine']],
    ['I have type 2 diabetes', ['condition']],
    ['I prefer short answers without jargon', ['preference']],
    ['My goal is to walk 8000 steps a day', ['goal']],
    ['I work rotating night shifts at the hospital and sleep badly', ['condition', 'circumstance']],
  ])('keeps "%s" as %j', (message, kinds) => {
    const facts = extractFacts(message);
    expect(facts).toHaveLength(1);
    expect(facts[0].kinds).toEqual(kinds);
  });

  it.each([
    'hi',
    'Hello!',
    'thanks',
    'ok',
    'What medicine do I take in the morning?',
    'How long can an opened insulin pen stay at room temperature?',
    'Can I take ibuprofen with metformin',
    'should I worry about my knee pain after running',
    'Tell me about sleep hygiene.',
    'The weather is nice today.',
  ])('saves nothing for "%s"', (message) => {
    expect(extractFacts(message)).toEqual([]);
  });

  it('keeps the statement and drops the question of a mixed message', () => {
    const facts = extractFacts('I am allergic to peanuts. What snacks are safe for me?');
    expect(facts.map((f) => f.text)).toEqual(['I am allergic to peanuts.']);
  });

  it('never keeps a sentence ending in a question mark, whatever its words (property)', () => {
    const words = fc.constantFrom(
      'I',
      'take',
      'metformin',
      '500',
      'mg',
      'allergic',
      'my',
      'goal',
      'prefer',
      'have',
      'asthma',
      'work',
      'nights',
      'to',
      'penicillin',
    );
    fc.assert(
      fc.property(fc.array(words, { minLength: 1, maxLength: 12 }), (w) => {
        const question = `${w.join(' ')}?`;
        expect(isQuestion(question)).toBe(true);
        expect(extractFacts(question)).toEqual([]);
      }),
    );
  });
});
