import fc from 'fast-check';
import { RedFlagScreen, asksWhatToDoNow, planConversation, scoreSegments } from '../../src/safety';
import { TOY_CLASSES, classIndex, oneHot, toySemanticModel } from '../support/toy-semantic-model';

// The "what do I do now" signal (ADR 0426): a message that asks whether to wait, call, go or give something holds
// each of its sentences to the message threshold. The messages in the first two tables were written for this test.

describe('asksWhatToDoNow', () => {
  it.each([
    'Should I wait?',
    'shud i call someone',
    'can we just give him another puff of the inhaler',
    'is it ok to sleep it off',
    'Is it alright if I leave her on the sofa?',
    'what do I do',
    'Wat should we do???',
    'do we need to go to A&E or can it wait till the morning',
    'does she have to see someone tonight',
    "I'll just ride it out, right?",
    'Should he take another aspirin',
    'is it safe to drive him in ourselves? the ambulance could be hours',
  ])('reads a question about what to do now: %s', (text) => {
    expect(asksWhatToDoNow(text)).toBe(true);
  });

  it.each([
    // about another time, or hypothetical
    'What should I do if someone has a seizure?',
    'what should we do when a toddler swallows a coin',
    'should I call next time it happens',
    'For my first aid course: if a person is choking, should I give back blows first?',
    // someone else asks, or nothing is asked
    'What should you do for a nosebleed?',
    'My dad waited two hours for the ambulance last year.',
    'I went to the GP and they gave me antibiotics.',
    // an errand, not an action about the situation
    'Should she get a flu jab this year?',
    'should i use a humidifier at night',
    '',
  ])('does not read one into: %s', (text) => {
    expect(asksWhatToDoNow(text)).toBe(false);
  });

  it('never throws; a question on its own line counts, the same question about another time never does', () => {
    const ask = fc.constantFrom('should I wait', 'what do we do', 'is it ok to leave him', 'do I need to go');
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), ask, fc.string({ maxLength: 300 }), (before, q, after) => {
        expect(asksWhatToDoNow(`${before}\n${q}?\n${after}`)).toBe(true);
        expect(asksWhatToDoNow(`${q} if it happens again`)).toBe(false);
        expect(asksWhatToDoNow(`when that happens, ${q}?`)).toBe(false);
      }),
      { numRuns: 3000 },
    );
    expect(asksWhatToDoNow(undefined as unknown as string)).toBe(false);
    expect(asksWhatToDoNow('should i wait '.repeat(10_000))).toBe(true);
  });
});

describe('planConversation and the signal', () => {
  it('marks every sentence of a message that asks what to do now, and nothing else', () => {
    const latest = 'He came off his bike and his leg is pouring blood. Should I wait for his mum?';
    const plan = planConversation(latest, ['we are at the park']);
    const sentences = plan.segments.filter((s) => s.kind === 'sentence');
    expect(sentences.length).toBe(2);
    expect(sentences.every((s) => s.asksNow === true)).toBe(true);
    expect(plan.segments.filter((s) => s.kind === 'message').every((s) => s.asksNow === undefined)).toBe(
      true,
    );
  });

  it('marks nothing when the message does not ask', () => {
    const plan = planConversation('He came off his bike. His leg is pouring blood.');
    expect(plan.segments.some((s) => s.asksNow)).toBe(false);
  });
});

describe('scoreSegments and a sentence of a message that asks what to do now', () => {
  // The sentence threshold is out of reach, so only the signal can let a sentence refuse.
  const none = TOY_CLASSES - 1;
  const model = toySemanticModel({ messageThreshold: 0.7, sentenceThreshold: 1.01 });
  const bleeding = classIndex('severe_bleeding');
  const message = { text: 'whole', kind: 'message' as const, parts: [] };
  const sentence = { text: 'one sentence', kind: 'sentence' as const, parts: [] };

  it('an alarming sentence refuses at the message threshold when the message asks what to do now', () => {
    const score = scoreSegments(
      model,
      [message, { ...sentence, asksNow: true }],
      [oneHot(none), oneHot(bleeding)],
    );
    expect(score.verdict?.category).toBe('severe_bleeding');
  });

  it('without the signal the same sentence is held to the sentence threshold', () => {
    const score = scoreSegments(model, [message, sentence], [oneHot(none), oneHot(bleeding)]);
    expect(score.verdict).toBeNull();
  });

  it('the signal never lets a calm sentence refuse', () => {
    const score = scoreSegments(
      model,
      [message, { ...sentence, asksNow: true }],
      [oneHot(none), oneHot(none)],
    );
    expect(score.verdict).toBeNull();
  });
});

describe('the screen with the signal (real encoder and shipped model)', () => {
  let screen: RedFlagScreen;
  beforeAll(async () => {
    screen = new RedFlagScreen();
    await screen.ready;
  });

  // From blind4-spent.jsonl (a spent development set), the misses that led to the signal: the alarming sentence
  // scored between the message and the sentence thresholds, next to a question about what to do.
  it.each([
    [
      "should i put a tourniquet on? mate's arm got caught in the machinery and it's bleeding like mad",
      'severe_bleeding',
    ],
    [
      'Pain in chest very strong, like burning and pressing, go to the left arm. I am 59. Taking aspirin is ok? Should I wait?',
      'heart_attack',
    ],
  ])('refuses %s', async (text, category) => {
    expect((await screen.screen(text))?.category).toBe(category);
  });
});
