import { normalizeMessage } from './red-flag-normalize';

/**
 * The "what do I do now" signal of the red-flag screen (ADR 0426): the latest message asks whether to wait, call,
 * go, take or give something, or what to do, about the situation it describes ("Should I wait?", "is it ok to sleep
 * it off", "do we need to go to A&E or can it wait till morning"). Such a question is what a person in danger asks;
 * the classifier, trained on many questions asked for study or planning, reads the question sentence as a reason to
 * relax. When the signal is present, each sentence of the latest message is held to the message threshold instead
 * of the stricter sentence threshold, so "mate's arm got caught in the machinery and it's bleeding like mad" refuses
 * although it sits next to "should I put a tourniquet on?".
 *
 * Deliberately narrow, so that it only lowers the bar for a sentence the classifier already finds alarming:
 * - only first-person or cared-for subjects (I, we, he, she, they), not "what should you do";
 * - never when the question is conditional or about another time ("what should I do if ...", "... next time");
 * - it never refuses on its own: a sentence still needs the message-level emergency probability.
 */

// On normalised text (lower case, contractions expanded, clauses joined with " / ", sentences with " | "). Each
// pattern spans words and single spaces only, so it never crosses a clause.
const SUBJECT = '(?:i|we|he|she|they)';
const SHOULD = '(?:should|shud|shld|shall|do|can|could|must|would)';
const ACT = '(?:wait|call|ring|phone|go|take|give|put|drive|leave|sleep|stay|let|worry|panic)';
const ASKS_NOW: readonly RegExp[] = [
  // "should I wait", "can we just give him", "shud i call"
  new RegExp(`\\b${SHOULD} ${SUBJECT} (?:just |still |now |really |maybe )?${ACT}\\b`),
  // "is it ok to", "would it be safe if", "is that alright to"
  /\b(?:is it|would it be|will it be|is that|it is|is this) (?:ok|okay|alright|all right|safe|fine) (?:to|if)\b/,
  // "what do I do", "what should we do", "wat shud i do"
  new RegExp(`\\b(?:what|wat|wht) ${SHOULD} ${SUBJECT} do\\b`),
  // "do I need to go", "does she have to see", "do we have to call"
  /\b(?:do|does) (?:i|we|he|she|they) (?:need|have) to (?:go|call|ring|see|get|take)\b/,
  // "wait until the morning", "leave it till tomorrow", "hold on til monday"
  /\b(?:wait|hold on|leave it|leave him|leave her) (?:until|till|til|for) (?:the )?(?:morning|tomorrow|monday|later|tonight|the weekend)\b/,
  /\bsleep it off\b|\bride it out\b|\bsee how (?:it|he|she|they) (?:goes|go)\b/,
];

// A sentence about another time or a hypothetical ("what should I do if ...", "if a person is choking, should I
// ...", "should I call next time"): not now. Checked over the whole sentence the question is in.
const NOT_NOW = /\b(?:if|when|whenever|in case|in future|in the future|next time|for future)\b/;
// ... except the "if" of "is it ok if I ...", which asks about now.
const OK_IF = /\b(?:ok|okay|alright|all right|safe|fine) if\b/g;

/** True when the latest message asks what to do about the situation now (see the module comment). Never throws. */
export function asksWhatToDoNow(latest: string): boolean {
  if (typeof latest !== 'string' || latest.trim() === '') return false;
  // Line breaks end a sentence here too ("If\nshould I wait?" is two thoughts, not a conditional).
  const sentences = latest
    .slice(0, 2000)
    .split(/[\r\n\u2028\u2029]+/)
    .flatMap((line) => normalizeMessage(line).text.split(' | '));
  return sentences.some(
    (sentence) =>
      !NOT_NOW.test(sentence.replace(OK_IF, '')) && ASKS_NOW.some((pattern) => pattern.test(sentence)),
  );
}
