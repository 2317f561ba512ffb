import type { RedFlagCategory } from './red-flag-types';

/**
 * A category fires when every group has at least one feature present (AND of ORs), and at least one of
 * the features used comes from the latest message (earlier turns can complete a cue, never fire alone).
 */
export interface CategoryRule {
  category: RedFlagCategory;
  all: readonly (readonly string[])[];
}

const direct = (category: RedFlagCategory, ...features: string[]): CategoryRule => ({
  category,
  all: [features],
});
const both = (category: RedFlagCategory, ...groups: string[][]): CategoryRule => ({ category, all: groups });

const BREATHING = [
  'breath.cannot',
  'breath.difficulty',
  'breath.gasp',
  'breath.choking',
  'breath.wheeze',
  'sign.breathless',
];
const SEIZING = ['sz.claim', 'sz.active', 'sz.duration', 'sz.first', 'sz.now', 'sz.foam'];
const NO_RESPONSE = ['unr.noresponse', 'unr.unconscious', 'unr.nobreath'];

/** All rules, grouped by category. */
export const CATEGORY_RULES: readonly CategoryRule[] = [
  direct('anaphylaxis', 'ana.throat_close', 'ana.tongue', 'ana.severe', 'ana.epipen'),
  both(
    'anaphylaxis',
    ['ana.exposure', 'ana.allergic'],
    ['ana.swelling', 'ana.hives', 'ana.throat_tight', 'ana.swallow', 'sign.faint', ...BREATHING],
  ),
  both('anaphylaxis', ['ana.hives'], ['ana.swelling', 'ana.throat_tight', 'ana.swallow', ...BREATHING]),
  both('anaphylaxis', ['ana.throat_tight'], ['ana.swelling', 'ana.swallow', ...BREATHING]),

  direct(
    'overdose_poisoning',
    'od.word',
    'od.count',
    'od.bulk',
    'od.lot',
    'od.child',
    'od.poison',
    'od.co',
    'od.wild',
    'od.narcan',
  ),

  direct('pregnancy_emergency', 'preg.cord', 'preg.birth'),
  both(
    'pregnancy_emergency',
    ['preg.ctx'],
    ['preg.bleed', 'bleed.heavy', 'preg.movement', 'preg.green', 'preg.pain', 'preg.ectopic', ...SEIZING],
  ),
  both('pregnancy_emergency', ['preg.preterm'], ['preg.waters', 'preg.labour']),
  both('pregnancy_emergency', ['preg.waters'], ['preg.green', 'preg.bleed']),
  both(
    'pregnancy_emergency',
    ['preg.ctx'],
    ['sign.headache', 'sign.headache_severe', 'sign.swollen_body', 'ana.swelling'],
    ['sign.vision'],
  ),
  both('pregnancy_emergency', ['preg.ctx'], ['sign.headache_severe'], ['sign.swollen_body', 'ana.swelling']),

  direct(
    'suicidal_intent',
    'sui.kill',
    'sui.word',
    'sui.endlife',
    'sui.die',
    'sui.die_caused',
    'sui.jumpplace',
    'sui.method',
    'sui.method_time',
    'sui.stock',
    'sui.plan',
    'sui.done',
  ),
  both('suicidal_intent', ['sui.ledge'], ['sui.jump']),

  direct('self_harm', 'sh.intent'),
  both('self_harm', ['sh.about'], ['sh.blade']),
  both('self_harm', ['sh.act'], ['sh.again']),

  direct('meningitis', 'men.rash', 'men.claim', 'men.fontanelle'),
  both(
    'meningitis',
    ['men.stiff'],
    [
      'sign.fever',
      'men.photo',
      'men.rash',
      'men.purple',
      'sign.headache_severe',
      'sign.confused',
      'sign.drowsy',
    ],
  ),
  both('meningitis', ['men.stiff'], ['sign.vomit'], ['sign.headache']),
  both('meningitis', ['men.photo'], ['sign.fever'], ['sign.headache', 'sign.headache_severe']),
  both('meningitis', ['men.purple'], ['sign.fever', 'sign.drowsy', 'sign.confused', 'sign.spreading']),

  both(
    'child_emergency',
    ['child.subj'],
    [
      'child.floppy',
      'breath.blue',
      'child.breath',
      'child.swallow',
      'breath.cannot',
      'breath.difficulty',
      'breath.gasp',
      'breath.choking',
      ...NO_RESPONSE,
    ],
  ),
  both('child_emergency', ['child.infant'], ['sign.fever', 'child.cry']),
  both(
    'child_emergency',
    ['child.subj'],
    ['child.breath_fast'],
    ['child.floppy', 'breath.blue', 'sign.drowsy', 'child.pale', 'unr.noresponse'],
  ),
  both(
    'child_emergency',
    ['child.subj'],
    ['child.fall'],
    ['sign.vomit', 'sign.drowsy', 'child.floppy', 'unr.passedout', ...NO_RESPONSE],
  ),
  both('child_emergency', ['child.infant'], ['child.feed'], ['sign.drowsy', 'child.pale', 'child.floppy']),
  both('child_emergency', ['child.subj'], ['child.pale'], ['sign.drowsy', 'unr.noresponse']),

  direct('sepsis', 'sep.claim'),
  both('sepsis', ['sep.infection', 'sign.fever'], ['sep.sign', 'sign.confused']),
  both('sepsis', ['sep.chemo'], ['sign.fever']),

  direct('seizure', ...SEIZING),
  both('seizure', ['sz.jerk'], ['sz.eyes', 'sign.floor', 'unr.noresponse']),
  // a fit with a fever (febrile convulsion): "toddler with a high temperature went stiff and jerky" (ADR 0428)
  both('seizure', ['sz.jerk'], ['sign.fever']),
  both('seizure', ['sz.shake'], ['sz.eyes', 'sz.foam']),
  both('seizure', ['sz.shake'], ['sign.floor'], ['unr.noresponse', 'sz.eyes']),

  direct(
    'unresponsive',
    'unr.noresponse',
    'unr.unconscious',
    'unr.collapse',
    'unr.nobreath',
    'unr.defib',
    'unr.still',
  ),

  direct('stroke_fast', 'stroke.claim', 'stroke.face', 'stroke.oneside', 'stroke.speech', 'stroke.vision'),
  both('stroke_fast', ['stroke.arm'], ['stroke.sudden', 'stroke.cannot_speak', 'sign.confused']),
  both('stroke_fast', ['stroke.cannot_speak'], ['stroke.sudden', 'sign.confused']),

  direct('heart_attack', 'heart.claim', 'heart.severe'),
  both(
    'heart_attack',
    ['heart.chest'],
    ['heart.radiation', 'heart.sweat', 'sign.nausea', 'sign.faint', 'sign.breathless'],
  ),

  direct(
    'breathing_difficulty',
    'breath.cannot',
    'breath.difficulty',
    'breath.gasp',
    'breath.choking',
    'breath.blue',
    'breath.severe_sob',
    'breath.talk',
    'breath.asthma',
    'breath.inhaler',
  ),
  both(
    'breathing_difficulty',
    ['breath.talk_weak'],
    ['breath.asthma', 'breath.inhaler', 'breath.wheeze', 'sign.breathless'],
  ),

  direct('severe_bleeding', 'bleed.heavy'),
  both('severe_bleeding', ['bleed.soaked'], ['bleed.any']),
];

/**
 * When several categories fire, the first in this order is reported: the most specific instruction
 * wins (use the adrenaline pen, call poison control, call the maternity unit) over the generic one.
 */
export const CATEGORY_PRIORITY: readonly RedFlagCategory[] = [
  'anaphylaxis',
  'overdose_poisoning',
  'pregnancy_emergency',
  'suicidal_intent',
  'self_harm',
  'meningitis',
  'child_emergency',
  'sepsis',
  'seizure',
  'unresponsive',
  'stroke_fast',
  'heart_attack',
  'breathing_difficulty',
  'severe_bleeding',
];
