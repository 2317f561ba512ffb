import fc from 'fast-check';
import { RedFlagScreen, aboutAnimalOnly, type TextEmbedder } from '../../src/safety';
import { oneHot, toySemanticModel } from '../support/toy-semantic-model';

// The animal signal (ADR 0428): a conversation about an animal and no person is answered (a vet, not the emergency
// number for people). Every message here was written for this test; none is in a data file.

describe('aboutAnimalOnly', () => {
  it.each([
    'my dog is fitting on the kitchen floor, what should I do',
    'our old cat has collapsed and is breathing really slowly',
    "the puppy's leg is bleeding everywhere after the fence",
    'Rabbit got into the slug pellets, is that bad?',
    'my guinea pig stopped breathing for a bit and is floppy',
    'the kitten ate a lily leaf and keeps being sick, should I take her to the vet',
    'our pony got stung on the nose and it is swelling up',
  ])('reads an animal in danger: %s', (latest) => {
    expect(aboutAnimalOnly(latest)).toBe(true);
  });

  it.each([
    // a person is in danger, or could be
    'bitten by our dog and the blood will not stop',
    'the dog bit my hand and it is pouring with blood',
    'our dog knocked grandma over and she is not moving',
    'the dog bit him on the face and he is bleeding badly',
    'my horse threw her and she is not responding',
    'he fell off the horse and is not waking up',
    "my dog... sorry no, my toddler's drunk the bleach",
    'my cat and I both feel dizzy and sick since the boiler came on',
    'the cat is fine but I cannot breathe and my lips are swelling',
    "my 2 yo's been at the dog's tablets",
    'my cat scratched me and now my face is swelling and my throat is tight',
    'the dog is barking because someone collapsed outside',
    // it does not open with the animal
    'a wasp stung my dog and now I have been stung too and my throat is closing',
    'I gave my cat away today, I will not be needing anything after tonight',
    'what causes seizures in dogs?',
    // food, not a pet
    'choked on a fish bone and now my throat is swelling',
    'ate some chicken that smelled off and now I cannot stop vomiting blood',
    // nothing about an animal
    'my chest is crushing and I am sweating',
    '',
  ])('screens as always: %s', (latest) => {
    expect(aboutAnimalOnly(latest)).toBe(false);
  });

  it('needs the earlier turns screened with it to be about the animal and no person', () => {
    expect(aboutAnimalOnly('the dog is still shaking', ['our dog got into the rat poison'])).toBe(true);
    expect(aboutAnimalOnly('the dog is still shaking', ['my son found the rat poison'])).toBe(false);
    expect(aboutAnimalOnly('the dog is still shaking', ['he has gone blue and floppy'])).toBe(false);
    // only the last two earlier turns are screened, as by the screen itself
    expect(
      aboutAnimalOnly('the dog is still shaking', [
        'my son is fine',
        'our dog ate grapes',
        'the dog is being sick',
      ]),
    ).toBe(true);
  });

  it('never says animal-only once a person is named, wherever in the message (property)', () => {
    const person = fc.constantFrom(
      'my son',
      'my wife',
      'I',
      'my friend',
      'the baby',
      'grandad',
      'someone',
      'my mum',
    );
    const danger = fc.constantFrom(
      'is not breathing',
      'is bleeding a lot',
      'collapsed',
      'is having a fit',
      'swallowed the tablets',
    );
    fc.assert(
      fc.property(
        fc.constantFrom('my dog', 'the cat', 'our rabbit', 'the puppy'),
        fc.constantFrom('ran off and', 'is barking and', 'got out and'),
        person,
        danger,
        fc.boolean(),
        (animal, doing, who, what, personFirst) => {
          const text = personFirst
            ? `${who} ${what} and ${animal} ${doing} hid`
            : `${animal} ${doing} ${who} ${what}`;
          expect(aboutAnimalOnly(text)).toBe(false);
          expect(aboutAnimalOnly(`${animal} ${what}`, [`${who} ${what}`])).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('never throws on odd input', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 300 }),
        fc.array(fc.anything(), { maxLength: 3 }),
        (latest, earlier) => {
          expect(typeof aboutAnimalOnly(latest, earlier as string[])).toBe('boolean');
        },
      ),
    );
  });
});

describe('RedFlagScreen with the animal signal', () => {
  // An encoder that would make every text an emergency: only the animal signal can let these through.
  const alarmed: TextEmbedder = {
    warm: async () => undefined,
    embed: async (texts) => texts.map(() => oneHot(0)),
  };

  it('answers a conversation about an animal that the rules and the classifier would refuse for a person', async () => {
    const screen = new RedFlagScreen({
      embedder: alarmed,
      model: toySemanticModel({ messageThreshold: 0.5, sentenceThreshold: 0.5 }),
    });
    await screen.ready;
    expect(await screen.screen('our dog is not breathing and is lying flat')).toBeNull();
    expect(await screen.screen('my husband is not breathing and is lying flat')).not.toBeNull();
    expect(await screen.screen('the dog bit my arm, it is bleeding a lot and will not stop')).not.toBeNull();
  });
});
