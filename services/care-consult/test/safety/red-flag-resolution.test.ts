import { planConversation, resolvesEarlierScare, scoreSegments } from '../../src/safety';
import { TOY_CLASSES, classIndex, oneHot, toySemanticModel } from '../support/toy-semantic-model';

// The resolution signal (ADR 0418): a follow-up that says the earlier scare is over keeps the context join from
// refusing on its own. Every message here was written for this test; none is in a data file.

const scare = ['my little boy has gone really pale and floppy', 'I cannot find his inhaler anywhere'];

describe('resolvesEarlierScare', () => {
  it.each([
    'False alarm, he had just fallen asleep with his headphones in.',
    'Panic over! It was in the glovebox the whole time.',
    'Found it. Sorry for the fuss.',
    "Everything's settled now, thanks for staying with me",
    'The paramedics said it was just a panic attack, they have gone now.',
    "He's back to his usual self and asking for toast",
    'He is sat up and laughing at the telly now.',
    'Turns out it was only a nosebleed from the dry air. What humidifier do you recommend?',
    'It stopped after about a minute and she is asleep now.',
    'They discharged him this morning with antibiotics.',
  ])('reads a resolved scare: %s', (latest) => {
    expect(resolvesEarlierScare(latest, scare)).toBe(true);
  });

  it.each([
    // it came back, or got worse
    "he was fine but now he's collapsed again",
    'Panic over. Actually no, his lips have gone blue again',
    'it stopped for a bit and then started again, now three in a row',
    'back to normal for ten minutes, now worse than before',
    'Found it, but he still cannot get his breath',
    // a question or a condition is not a statement that it is over
    'is it a false alarm?',
    'if it has stopped, do I still need to call?',
    // negated
    'she is not back to normal',
    'this is no false alarm, please help',
    // not benign, or not explicit
    'the paramedics said it was a heart attack',
    "he's fine now",
    'I found him on the bathroom floor',
    'it has gone into my jaw now',
    "it's all over his legs now",
    'she was home alone when it happened',
    'found it, the empty bottle of paracetamol next to him',
    // nothing to do with a resolution
    'my chest is crushing and I am sweating',
    '',
  ])('must not read a resolution into: %s', (latest) => {
    expect(resolvesEarlierScare(latest, scare)).toBe(false);
  });

  it.each([
    ['I took 30 of my sleeping tablets an hour ago', 'False alarm, I feel fine now.'],
    ['my daughter swallowed one of those button batteries', "Panic over, she's back to normal and playing."],
    ['I have been cutting myself tonight', 'It has all settled now, found it.'],
    ['standing on the bridge again', 'false alarm'],
  ])(
    'never after something swallowed, taken or self-inflicted (looking well does not end it): %s',
    (earlier, latest) => {
      expect(resolvesEarlierScare(latest, [earlier])).toBe(false);
    },
  );

  it('never throws on odd input', () => {
    expect(resolvesEarlierScare(undefined as unknown as string)).toBe(false);
    expect(resolvesEarlierScare('panic over', [42 as unknown as string])).toBe(true);
    expect(resolvesEarlierScare('panic over '.repeat(5000))).toBe(true);
  });
});

describe('planConversation with a resolved follow-up', () => {
  it('marks only the context join, and scores the latest message and its sentences as before', () => {
    const latest = 'Panic over! It was in the glovebox the whole time. He is totally fine.';
    const plan = planConversation(latest, scare);
    const joins = plan.segments.filter((s) => s.text.includes('\n'));
    expect(joins).toHaveLength(1);
    expect(joins[0]!.resolved).toBe(true);
    const own = plan.segments.filter((s) => !s.text.includes('\n'));
    expect(own.length).toBeGreaterThan(1);
    expect(own.every((s) => s.resolved === undefined)).toBe(true);
    expect(own).toEqual(planConversation(latest).segments);
  });

  it('does not mark the join when the latest message brings the danger back', () => {
    const plan = planConversation("he was fine but now he's collapsed again", scare);
    expect(plan.segments.some((s) => s.resolved)).toBe(false);
  });
});

describe('scoreSegments and a resolved context join', () => {
  const none = TOY_CLASSES - 1;
  const cls = classIndex;
  const model = toySemanticModel({
    messageThreshold: 0.7,
    sentenceThreshold: 0.8,
    highCost: { classes: ['suicidal_intent', 'self_harm'], threshold: 0.45 },
  });
  const latest = { text: 'latest', kind: 'message' as const, parts: [] };
  const join = { text: 'earlier\nlatest', kind: 'message' as const, parts: [] };

  it('an alarming join refuses when the latest message does not resolve it', () => {
    const score = scoreSegments(model, [latest, join], [oneHot(none), oneHot(cls('unresponsive'))]);
    expect(score.verdict?.category).toBe('unresponsive');
  });

  it('a resolved join does not outvote the latest message alone, but still counts for the veto', () => {
    const score = scoreSegments(
      model,
      [latest, { ...join, resolved: true }],
      [oneHot(none), oneHot(cls('unresponsive'))],
    );
    expect(score.verdict).toBeNull();
    expect(score.highest).toBeGreaterThan(0.9);
  });

  it('a new danger in the latest message itself still refuses', () => {
    const score = scoreSegments(
      model,
      [latest, { ...join, resolved: true }],
      [oneHot(cls('stroke_fast')), oneHot(none)],
    );
    expect(score.verdict?.category).toBe('stroke_fast');
  });

  it('a resolved join still refuses on suicidal intent or self-harm', () => {
    const score = scoreSegments(
      model,
      [latest, { ...join, resolved: true }],
      [oneHot(none), oneHot(cls('suicidal_intent'))],
    );
    expect(score.verdict?.category).toBe('suicidal_intent');
  });
});
