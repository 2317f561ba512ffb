import {
  RedFlagScreen,
  detectRedFlagRule,
  planConversation,
  resolvesEarlierScare,
  scoreSegments,
  type TextEmbedder,
} from '../../src/safety';
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
    // ADR 0428
    'Never mind, she was only hiding behind the sofa.',
    'scratch that, the red in the bath was her bath bomb',
    'All good now, he is sleeping it off on the settee.',
    'I am safe now, my partner came home early.',
    'He is stable on the ward and they are keeping him in tonight.',
    'The bleeding has stopped after pressing for five minutes.',
    'She came round within a few seconds and is having a drink.',
    'I have calmed down now and can think straight.',
    "We're back home from A&E with some antibiotics.",
    'She has been checked over by the paramedics and is asleep in her own bed.',
    'The nurse rang back and said it is fine to wait for the GP in the morning.',
    'All sorted, he was hiding in the shed.',
    "We're out of hospital now with a follow-up next week.",
    'The GP saw him this afternoon.',
    'The ECG was normal and the doctor let us go.',
    'The rash faded under the glass straight away.',
    'Turns out she had just turned her phone off.',
    'He coughed the grape out by himself.',
    'She is breathing normally again and chatting.',
    'The nurse rang back, said it was a faint from standing too long.',
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
    'never mind the cost, I need help now',
    'all good with the dog, but my wife has gone grey and sweaty',
    'the bleeding has slowed a bit',
    'the seizure stopped and another one started',
    'she came round but cannot move her left arm',
    'the doctor said it was a stroke',
    'the pain has gone',
    'is he safe now?',
    'the scan was not normal',
    'the ECG not clear, they want to keep him',
    'the rash did not fade under the glass',
    'he stopped breathing again',
    'turns out he had taken all of his tablets',
    'she said it was just indigestion but she is grey and sweaty',
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
  it('marks every segment: the latest message, its sentences and the context join (ADR 0428)', () => {
    const latest = 'Panic over! It was in the glovebox the whole time. He is totally fine.';
    const plan = planConversation(latest, scare);
    expect(plan.segments.filter((s) => s.text.includes('\n'))).toHaveLength(1);
    expect(plan.segments.length).toBeGreaterThan(2);
    expect(plan.segments.every((s) => s.resolved === true)).toBe(true);
    // the same text without earlier turns is no follow-up: nothing is marked
    expect(planConversation(latest).segments.some((s) => s.resolved)).toBe(false);
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

  it('an unresolved latest message still refuses on its own', () => {
    const score = scoreSegments(
      model,
      [latest, { ...join, resolved: true }],
      [oneHot(cls('stroke_fast')), oneHot(none)],
    );
    expect(score.verdict?.category).toBe('stroke_fast');
  });

  it('a resolved latest message does not refuse on its emergency score, but still counts for the veto (ADR 0428)', () => {
    const score = scoreSegments(
      model,
      [
        { ...latest, resolved: true },
        { ...join, resolved: true },
      ],
      [oneHot(cls('stroke_fast')), oneHot(none)],
    );
    expect(score.verdict).toBeNull();
    expect(score.highest).toBeGreaterThan(0.9);
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

describe('RedFlagScreen and a resolved follow-up (ADR 0428)', () => {
  // An encoder under which every text reads as an unresponsive person: only the resolution signal lets these through.
  const alarmed: TextEmbedder = {
    warm: async () => undefined,
    embed: async (texts) => texts.map(() => oneHot(classIndex('unresponsive'))),
  };
  const build = async (): Promise<RedFlagScreen> => {
    const screen = new RedFlagScreen({
      embedder: alarmed,
      model: toySemanticModel({
        messageThreshold: 0.6,
        sentenceThreshold: 0.8,
        highCost: { classes: ['suicidal_intent', 'self_harm'], threshold: 0.5 },
      }),
    });
    await screen.ready;
    return screen;
  };

  it('answers a follow-up that says the scare is over, though every segment reads as an emergency', async () => {
    const screen = await build();
    expect(await screen.screen('Never mind, he had dozed off with the telly on.', scare)).toBeNull();
    // the same words without the earlier turns are no follow-up, and the same follow-up with a relapse refuses
    expect(await screen.screen('Never mind, he had dozed off with the telly on.')).not.toBeNull();
    expect(await screen.screen('Never mind. Now he will not wake up again.', scare)).not.toBeNull();
  });

  it('reads the rules on the latest message alone: a cue completed by an earlier turn no longer refuses', async () => {
    const screen = await build();
    const earlier = ['I am 9 weeks pregnant'];
    const latest = 'all good now, the bleeding was only from a scratch on my leg';
    expect(detectRedFlagRule(latest, earlier)).not.toBeNull();
    expect(await screen.screen(latest, earlier)).toBeNull();
  });

  it('still refuses a new danger the rules see in the latest message itself', async () => {
    const screen = await build();
    const hit = await screen.screen(
      'False alarm about the rash. Separately, my dad is slurring his words and his face has dropped on one side.',
      scare,
    );
    expect(hit?.category).toBe('stroke_fast');
  });
});
