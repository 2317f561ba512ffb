/** Every emergency category the red-flag detector can report, in no particular order. */
export const RED_FLAG_CATEGORIES = [
  'stroke_fast',
  'heart_attack',
  'breathing_difficulty',
  'anaphylaxis',
  'severe_bleeding',
  'suicidal_intent',
  'self_harm',
  'overdose_poisoning',
  'sepsis',
  'meningitis',
  'seizure',
  'pregnancy_emergency',
  'child_emergency',
  'unresponsive',
] as const;

/** An emergency category; the value travels as `category` in the SSE `refusal` frame. */
export type RedFlagCategory = (typeof RED_FLAG_CATEGORIES)[number];

/** What the chat pipeline needs to emit a `refusal` frame instead of calling a model. */
export interface RedFlagHit {
  category: RedFlagCategory;
  reason: 'emergency_red_flag';
  /** What to do now, written for the person, category-specific. */
  message: string;
  /** The short normalised cue(s) that matched, for audit; never the whole message. */
  matched: string;
}

/** Type guard for a category name read from untrusted data (labelled files, configuration). */
export function isRedFlagCategory(value: unknown): value is RedFlagCategory {
  return typeof value === 'string' && (RED_FLAG_CATEGORIES as readonly string[]).includes(value);
}
