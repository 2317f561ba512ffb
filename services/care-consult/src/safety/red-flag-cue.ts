import type { CueContextFlags } from './red-flag-context';

/**
 * One cue: a pattern over normalised text that, when it survives the context checks, contributes a
 * feature (e.g. `stroke.face`). Category rules combine features. Patterns only span words and single
 * spaces, so they never cross the clause (" / ") or sentence (" | ") separators.
 */
export interface CueSpec extends CueContextFlags {
  /** Feature id, "<group>.<name>". */
  id: string;
  /** Regular-expression source, wrapped in word boundaries at compile time. */
  re: string;
  /**
   * Words (or 5-letter prefixes of longer words) of which at least one occurs in every match; the
   * detector only runs the pattern when one is present. "#num" stands for any token starting with a digit.
   */
  stems: readonly string[];
  /** Look-alike or idiom test on the whole sentence; a hit discards the match. */
  unless?: RegExp;
  /**
   * A sign that a person is in danger now, too concrete to be a passing mention (no breathing or pulse, an overdose
   * amount taken): a rule hit that uses it stands whatever the semantic stage scores. Other rule hits can be vetoed
   * when every segment scores below the model's `vetoBelow` (ADR 0419).
   */
  firm?: boolean;
  /** Bounds for the first numeric capture group (pill counts, weeks of pregnancy). */
  min?: number;
  max?: number;
}

/** A stem list written as one space-separated string, to keep the cue tables readable. */
export function words(list: string): readonly string[] {
  return list.split(' ');
}

/** Zero to n further words: the only kind of gap cue patterns use (bounded, so no runaway backtracking). */
export function gap(n: number): string {
  return `(?: [a-z0-9.]+){0,${n}}`;
}

/** "<someone> is having", with the question form ("is my mum having") and first person ("i am having"). */
export const SUBJECT_HAVING =
  '(?:i am|i|am i|he is|she is|they are|is (?:he|she|it|this|my [a-z]+|our [a-z]+)|(?:my|our) [a-z]+(?: [a-z]+)? is|you are|are you|he|she)';

/** Body-part or feeling words after which a colour means cyanosis, used by breathing and child rules. */
export const BLUE_LOOKALIKE =
  /\b(ice lolly|lolly|popsicle|slushie|slush|blueberr\w*|paint|painted|dye|dyed|ink|marker|lipstick|makeup|make up|costume|nursery|crayon|sweets|candy|rash|spots|bruise\w*|rage|angry|anger|embarrass\w*|blush\w*)\b/;
