import { asksWhatToDoNow } from './red-flag-asks-now';
import { resolvesEarlierScare } from './red-flag-resolution';

/**
 * What the semantic stage of the red-flag screen reads, and how: the texts to embed for one request (the latest
 * message, or its sentences when it has several; the last earlier user turns cut the same way) and how the vectors
 * of the scored segments are built from theirs. An earlier turn is cut exactly as it was when it was the latest
 * message, so its texts are already in the sentence encoder's cache: a request embeds only its own new text.
 */

/** A piece of the user side of the conversation to score. */
export interface Segment {
  /** What the segment covers (for tests and audit; never sent anywhere). */
  text: string;
  /** `message`: the latest message or its join with earlier turns; `sentence`: one sentence of the latest message. */
  kind: 'message' | 'sentence';
  /** The segment's vector is the normalised weighted sum of these embedded texts' vectors. */
  parts: readonly { index: number; weight: number }[];
  /**
   * Set on every segment of a follow-up whose latest message says the earlier scare is over
   * ({@link resolvesEarlierScare}; the context join alone in ADR 0418, every segment since ADR 0428): no segment may
   * refuse on its emergency score. They still count for suicidal intent and self-harm and for the veto, and the
   * rules still read the latest message.
   */
  resolved?: true;
  /**
   * Set on each sentence of the latest message when that message asks what to do now ({@link asksWhatToDoNow},
   * ADR 0426): the sentence is held to the message threshold, not the stricter sentence threshold.
   */
  asksNow?: true;
}

/** The texts to embed in one batch, and the segments scored from their vectors. */
export interface ConversationPlan {
  texts: string[];
  segments: Segment[];
}

// Bounds keep the embedding cost per request small whatever is pasted.
const MAX_MESSAGE_CHARS = 600;
const MAX_SENTENCE_CHARS = 300;
const MAX_SENTENCES = 10;
const CONTEXT_TURNS = 2;

const tail = (text: string, max: number): string =>
  text.length <= max ? text : text.slice(text.length - max);

/** Splits text into sentences; very short pieces ("Hi.", "ok") join the next one. */
export function splitSentences(text: string): string[] {
  const pieces = text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  const out: string[] = [];
  let carry = '';
  for (const piece of pieces) {
    const joined = carry ? `${carry} ${piece}` : piece;
    if (joined.split(/\s+/).length < 4) carry = joined;
    else {
      out.push(joined);
      carry = '';
    }
  }
  if (carry) {
    if (out.length > 0) out[out.length - 1] = `${out[out.length - 1]} ${carry}`;
    else out.push(carry);
  }
  return out;
}

/**
 * The texts one message is embedded as: the message itself (its end, if long) when it is one sentence, otherwise
 * its sentences (the first two and the last eight of a long paste: an emergency is often the last line of a
 * chatty message). Every sentence is embedded once; the message's vector is built from theirs.
 */
export function messageTexts(message: string): string[] {
  const trimmed = message.trim();
  if (!trimmed) return [];
  const sentences = splitSentences(trimmed);
  if (sentences.length <= 1) return [tail(trimmed, MAX_MESSAGE_CHARS)];
  const picked =
    sentences.length <= MAX_SENTENCES
      ? sentences
      : [...sentences.slice(0, 2), ...sentences.slice(sentences.length - (MAX_SENTENCES - 2))];
  return picked.map((s) => tail(s, MAX_SENTENCE_CHARS));
}

/**
 * Plans one request: the latest message as a whole (the mean of its texts), each of its sentences when there are
 * several, and its join with the last two earlier user turns (the mean of the three turns' vectors: a cue split
 * across turns). A copy of the latest message among the earlier turns is ignored. When the latest message says the
 * earlier scare is over, every segment is marked `resolved` (ADR 0418, 0428).
 */
export function planConversation(latest: string, earlier: readonly string[] = []): ConversationPlan {
  const texts: string[] = [];
  const indexOf = (text: string): number => {
    const at = texts.indexOf(text);
    if (at >= 0) return at;
    texts.push(text);
    return texts.length - 1;
  };
  const own = messageTexts(latest).map(indexOf);
  if (own.length === 0) return { texts, segments: [] };
  const previous = earlier
    .filter((m) => typeof m === 'string' && m.trim() && m !== latest)
    .slice(-CONTEXT_TURNS);
  // A follow-up that says the earlier scare is over marks every segment (ADR 0418, widened by ADR 0428).
  const resolved =
    previous.length > 0 && resolvesEarlierScare(latest, previous) ? { resolved: true as const } : {};
  const segments: Segment[] = [
    { text: latest.trim(), kind: 'message', parts: own.map((index) => ({ index, weight: 1 })), ...resolved },
  ];
  if (own.length > 1) {
    const asksNow = asksWhatToDoNow(latest) ? { asksNow: true as const } : {};
    for (const index of own)
      segments.push({
        text: texts[index]!,
        kind: 'sentence',
        parts: [{ index, weight: 1 }],
        ...asksNow,
        ...resolved,
      });
  }
  if (previous.length > 0) {
    const turns = [...previous.map((m) => messageTexts(m).map(indexOf)), own];
    segments.push({
      text: [...previous, latest].map((m) => m.trim()).join('\n'),
      kind: 'message',
      parts: turns.flatMap((turn) => turn.map((index) => ({ index, weight: 1 / turn.length }))),
      ...resolved,
    });
  }
  return { texts, segments };
}

/** The unit vector of each segment, from the vectors of the plan's texts (in the order of `plan.texts`). */
export function segmentVectors(
  plan: ConversationPlan,
  vectors: readonly ArrayLike<number>[],
  dimension: number,
): Float32Array[] {
  return plan.segments.map((segment) => {
    const out = new Float32Array(dimension);
    for (const { index, weight } of segment.parts) {
      const v = vectors[index];
      if (!v) continue;
      for (let i = 0; i < dimension; i++) out[i] = out[i]! + weight * (v[i] ?? 0);
    }
    let norm = 0;
    for (let i = 0; i < dimension; i++) norm += out[i]! * out[i]!;
    norm = Math.sqrt(norm);
    if (norm > 0) for (let i = 0; i < dimension; i++) out[i] = out[i]! / norm;
    return out;
  });
}
