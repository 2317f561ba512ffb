import { RED_FLAG_CATEGORIES, detectRedFlag, type RedFlagCategory } from '../../src/safety';

const categoryOf = (text: string, recent?: string[]): RedFlagCategory | null =>
  detectRedFlag(text, recent)?.category ?? null;

describe('red-flag detector: what it fires on', () => {
  it.each<[string, RedFlagCategory]>([
    ["my dad's face is drooping and he can't lift his arm", 'stroke_fast'],
    ["I can't breathe", 'breathing_difficulty'],
    ['my throat is closing after peanuts', 'anaphylaxis'],
    ['I took 30 pills', 'overdose_poisoning'],
    ['I want to end my life', 'suicidal_intent'],
    ["my baby is floppy and won't wake", 'child_emergency'],
    ["I'm 34 weeks and bleeding heavily", 'pregnancy_emergency'],
    ["stiff neck, fever and a rash that doesn't fade", 'meningitis'],
    ['crushing pain in my chest right now', 'heart_attack'],
    ['blood is spurting out of his leg', 'severe_bleeding'],
    ['I keep cutting myself and I want to do it more', 'self_harm'],
    ['my dad has pneumonia and now he is confused and breathing really fast', 'sepsis'],
    ['my son is having a seizure', 'seizure'],
    ['my husband collapsed and is not breathing', 'unresponsive'],
    // ADR 0426 follow-up cues, written for this test (blind5-spent's misses had the same shape)
    ["mum's gone quiet in her chair and I can't get her to respond", 'unresponsive'],
    ['he went down at the bus stop, grab the defibrillator!', 'unresponsive'],
    ['is it bad? she swallowed the lot about half an hour ago', 'overdose_poisoning'],
    // ADR 0428 suicide-method cues, written for this test
    ['roughly how many sleeping tablets would be enough to never wake up?', 'suicidal_intent'],
    ['he is having a seizure right now, tell me what to do so I am ready', 'seizure'],
    // ADR 0428 sign cues, written for this test
    ['there has been a squeezing in my chest since lunch and I feel clammy', 'heart_attack'],
    ['my little girl is burning up and just went stiff and jerky on the sofa', 'seizure'],
    ['a dark red blotch is spreading on her tummy and she is very drowsy', 'meningitis'],
    ['a man is lying by the bus stop not moving or talking', 'unresponsive'],
    ['I want to end my life, I have a plan just in case', 'suicidal_intent'],
    ['how long would it take to die from cutting my wrists in the bath', 'suicidal_intent'],
    ["I've been saving up my tablets for weeks and I know which night", 'suicidal_intent'],
    ['the painkillers are all counted out on the desk and the door is locked', 'suicidal_intent'],
  ])('fires on %j as %s', (text, category) => {
    expect(categoryOf(text)).toBe(category);
  });

  it('completes a cue split across the last few turns, but only when the latest message carries part of it', () => {
    expect(categoryOf("it's spreading to my left arm and I'm sweating", ['chest pain'])).toBe('heart_attack');
    expect(categoryOf("it's spreading to my left arm and I'm sweating")).toBeNull();
    expect(categoryOf('thanks, what should I eat tonight?', ["I can't breathe"])).toBeNull();
  });

  it('ignores context older than the last three earlier turns, and a repeat of the latest message', () => {
    const old = ['chest pain', 'ok', 'fine', 'sure'];
    expect(categoryOf('now I am sweating a lot', old)).toBeNull();
    expect(categoryOf('now I am sweating a lot', old.slice(0, 3))).toBe('heart_attack');
    expect(categoryOf('I am sweating', ['chest pain', 'I am sweating'])).toBe('heart_attack');
  });

  it('normalises case, unicode quotes, contractions and stray punctuation', () => {
    for (const text of [
      'I CAN\u2019T BREATHE',
      'i cant breathe!!!',
      'I can not breathe',
      'I   can\u2019t\tbreathe…',
    ]) {
      expect(categoryOf(text)).toBe('breathing_difficulty');
    }
  });

  it('tolerates common misspellings of the words cues anchor on', () => {
    expect(categoryOf('i tihnk im having a strok')).toBe('stroke_fast');
    expect(categoryOf('my freind is having a siezure')).toBe('seizure');
    expect(categoryOf('i think its anafylaxis, ate nuts, throat tight')).toBe('anaphylaxis');
    expect(categoryOf('my husband is unconsious')).toBe('unresponsive');
    expect(categoryOf('im bleedin alot and cant stop it')).toBe('severe_bleeding');
    expect(categoryOf('my dad is unresponsiv')).toBe('unresponsive');
  });

  it('answers with the refusal reason, a category-specific instruction and a short audit cue', () => {
    const hit = detectRedFlag(
      'Please help, I think my dad is having a stroke, his face is drooping and it started ten minutes ago',
    )!;
    expect(hit).toMatchObject({ category: 'stroke_fast', reason: 'emergency_red_flag' });
    expect(hit.message).toMatch(/911/);
    expect(hit.message).toMatch(/112/);
    expect(hit.message).toMatch(/stroke/i);
    expect(hit.matched.length).toBeLessThanOrEqual(80);
    expect(hit.matched).not.toContain('please help');
    expect(detectRedFlag('I want to kill myself')!.message).toMatch(/988/);
    const messages = new Set(RED_FLAG_CATEGORIES.map((c) => detectRedFlag(SAMPLE[c])?.message));
    expect(messages.size).toBe(RED_FLAG_CATEGORIES.length);
  });

  it('reports the most specific category when several fire', () => {
    expect(categoryOf('I took 30 pills and I want to die')).toBe('overdose_poisoning');
    expect(categoryOf('I ate peanuts and now I cannot breathe')).toBe('anaphylaxis');
    expect(categoryOf('I am 30 weeks pregnant and having a seizure')).toBe('pregnancy_emergency');
    expect(categoryOf("I'm going to overdose on my pills tonight")).toBe('suicidal_intent');
  });
});

const SAMPLE: Record<RedFlagCategory, string> = {
  stroke_fast: 'her face is drooping',
  heart_attack: 'I am having a heart attack',
  breathing_difficulty: 'I cannot breathe',
  anaphylaxis: 'my tongue is swelling',
  severe_bleeding: 'I am bleeding heavily',
  suicidal_intent: 'I want to kill myself',
  self_harm: 'I want to cut myself',
  overdose_poisoning: 'I drank bleach',
  sepsis: 'I think I have sepsis',
  meningitis: 'a rash that does not fade under a glass',
  seizure: 'he is having a seizure',
  pregnancy_emergency: 'I am 30 weeks pregnant and bleeding',
  child_emergency: 'my baby is not breathing',
  unresponsive: 'my dad is unconscious',
};

describe('red-flag detector: what it must not fire on', () => {
  it.each([
    [
      'look-alikes of the ADR 0426 follow-up cues',
      [
        'the dog swallowed the lot of the chocolate buttons',
        'I ate the whole lot of cake lol',
        "I can't get him to answer his phone",
        'where is the nearest defibrillator in our office?',
        'we did a first aid course and practised how to use the defibrillator',
      ],
    ],
    [
      'look-alikes of the ADR 0428 suicide-method cues',
      [
        'how long does it take to die from rabies if it is not treated?',
        "I'm collecting my tablets from the pharmacy later",
        'my tablets are set out in the dosette box for the week',
        'how long does it take for a cut on my wrist to heal',
        'how many tablets can I take in a day for a headache',
        "we've been stockpiling paracetamol because of the shortage on the news",
        'lying on the sofa not moving all day, best Sunday ever',
        'my dog keeps making jerky movements in his sleep',
        'a purple patch of lavender in the garden',
      ],
    ],
    [
      'preparing for a time that may come (ADR 0428)',
      [
        'my daughter has a peanut allergy, when do I use her EpiPen so I am ready if it ever happens',
        'my daughter has a peanut allergy, when do I use her EpiPen, just in case',
      ],
    ],
    [
      'negation',
      [
        'no chest pain',
        "I don't have trouble breathing",
        'denies suicidal thoughts',
        'no fever, no rash, no neck stiffness',
      ],
    ],
    [
      'history',
      [
        'I had a stroke in 2015',
        'last year I had a seizure',
        'years ago, I took 30 pills',
        'I used to self harm as a teen',
      ],
    ],
    [
      'education',
      [
        'what are the signs of a stroke?',
        'how do I recognise anaphylaxis in kids?',
        'my essay on heart attacks',
      ],
    ],
    [
      'idiom',
      [
        'that was a stroke of luck',
        'this traffic is killing me',
        "I'm dying to know",
        "I'm dead tired",
        'this traffic gives me a heart attack',
        "I'm choking on the pile of paperwork this week",
        'my boss was frothing at the mouth over the budget',
      ],
    ],
    [
      'look-alike',
      [
        'I swim breaststroke',
        'the court ordered a seizure of assets',
        'the tent collapsed',
        'unconscious bias training',
      ],
    ],
    [
      'hypothetical',
      ['what should I do if someone has a seizure?', 'if my baby stops breathing what do I do?'],
    ],
    [
      'fear of the future',
      ["I'm scared of having a heart attack like my dad", 'I worry about having a stroke'],
    ],
    [
      'habitual or chronic',
      ['my throat closes up a bit whenever I eat peanuts', "I've been having seizures for years"],
    ],
    ['joke', ["lol I can't breathe this meme is hilarious", 'this spreadsheet makes me want to die lol']],
  ])('stays silent on %s', (_kind, texts) => {
    for (const text of texts as string[])
      expect({ text, category: categoryOf(text) }).toEqual({ text, category: null });
  });

  it('keeps a negation inside its clause: "no chest pain, but I can\'t breathe" still fires', () => {
    expect(categoryOf("no chest pain, but I can't breathe")).toBe('breathing_difficulty');
    expect(categoryOf('I had a stroke in 2015 and now my face is drooping again')).toBe('stroke_fast');
    expect(categoryOf("I'm not sure what's going on but her face is drooping")).toBe('stroke_fast');
  });

  it('keeps choking on food and foaming at the mouth next to the overload and anger idioms (ADR 0418)', () => {
    expect(categoryOf("he's choking on a piece of toast and can't cough")).toBe('breathing_difficulty');
    expect(categoryOf('she is on the floor jerking and foaming at the mouth')).toBe('seizure');
    expect(categoryOf('choking on my emails lol')).toBeNull();
  });

  it('takes a suicidal "if" seriously unless it is a joke or about someone else', () => {
    expect(categoryOf("if nobody calls me back I'm going to kill myself")).toBe('suicidal_intent');
    expect(categoryOf("if I hear that song again I'll kill myself lol")).toBeNull();
    expect(categoryOf('what should I do if my friend says she wants to kill herself?')).toBeNull();
  });

  it('does not count a small dose or a unit as a pill count', () => {
    expect(categoryOf('I took 2 paracetamol for my headache')).toBeNull();
    expect(categoryOf('I took 10mg of melatonin')).toBeNull();
    expect(categoryOf('I took 12 paracetamol')).toBe('overdose_poisoning');
  });
});
