import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { RED_FLAG_CATEGORIES, isRedFlagCategory, type RedFlagCategory } from './red-flag-types';

/**
 * The meaning-based second stage of the red-flag screen, over Universal Sentence Encoder lite vectors (512-d,
 * `@care/sentence-encoder`): the average of a multinomial logistic-regression classifier and a nearest-neighbour
 * vote over the training examples. Trained offline by `bench/red-flags/train-semantic.mjs` and shipped as
 * `data/red-flags/semantic-model.json` + `semantic-exemplars.bin`. The caller embeds the segments and this code
 * scores them, so it stays synchronous, pure and testable.
 */

/** Classes of the classifier: every category plus `none` (not an emergency), in this order. */
export const SEMANTIC_CLASSES: readonly (RedFlagCategory | 'none')[] = [...RED_FLAG_CATEGORIES, 'none'];

/** The shipped classifier: one weight row and bias per class, over unit-length sentence vectors. */
export interface SemanticModel {
  dimension: number;
  classes: string[];
  weights: number[][];
  bias: number[];
  /** Segments of the whole text / context join fire at or above this emergency probability. */
  messageThreshold: number;
  /** Single sentences fire at or above this (higher: a sentence lacks the context that excuses it). */
  sentenceThreshold: number;
  /**
   * A rule hit stands unless every segment's emergency probability is below this (the classifier is sure it
   * is a question about a symptom, not a person in danger); 0 disables the veto.
   */
  vetoBelow: number;
  /** Nearest-neighbour vote: how many neighbours, and the softmax temperature over their cosine similarity. */
  knn: { k: number; temperature: number };
  /** Class index of each exemplar; their vectors are in {@link SemanticModel.exemplars}. */
  exemplarClasses: number[];
  /** Per-exemplar scale of the int8 vectors in the `.bin` file (value = byte * scale). */
  exemplarScales: number[];
  /** Exemplar vectors, row-major, filled by {@link loadSemanticModel} from the `.bin` file. */
  exemplars?: Float32Array;
  /** sha256 of the training files, so a test can tell the shipped model is not stale. */
  trainedOn: string;
}

/** Where the shipped model lives. */
export const SEMANTIC_MODEL_PATH = resolve(__dirname, '../../data/red-flags/semantic-model.json');

/** The int8 exemplar vectors, next to the model. */
export function exemplarsPath(modelPath: string): string {
  return modelPath.replace(/semantic-model\.json$/, 'semantic-exemplars.bin').replace(/\.json$/, '.bin');
}

/** Reads and checks the shipped model; throws on a broken file (start-up must fail, not run without it). */
export function loadSemanticModel(path: string = SEMANTIC_MODEL_PATH): SemanticModel {
  const model = JSON.parse(readFileSync(path, 'utf8')) as SemanticModel;
  const ok =
    Array.isArray(model.classes) &&
    model.classes.length === SEMANTIC_CLASSES.length &&
    model.classes.every((c, i) => c === SEMANTIC_CLASSES[i]) &&
    Array.isArray(model.weights) &&
    model.weights.length === model.classes.length &&
    model.weights.every((row) => Array.isArray(row) && row.length === model.dimension) &&
    Array.isArray(model.bias) &&
    model.bias.length === model.classes.length &&
    typeof model.messageThreshold === 'number' &&
    typeof model.sentenceThreshold === 'number' &&
    typeof model.vetoBelow === 'number' &&
    Array.isArray(model.exemplarClasses) &&
    Array.isArray(model.exemplarScales) &&
    model.exemplarScales.length === model.exemplarClasses.length &&
    typeof model.knn?.k === 'number';
  if (!ok) throw new Error(`red-flag semantic model at ${path} is malformed or was trained for other categories`);
  const bytes = readFileSync(exemplarsPath(path));
  if (bytes.length !== model.exemplarClasses.length * model.dimension) {
    throw new Error(`red-flag semantic exemplars do not match the model at ${path}`);
  }
  const int8 = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  const exemplars = new Float32Array(int8.length);
  for (let e = 0; e < model.exemplarClasses.length; e++) {
    const scale = model.exemplarScales[e]!;
    for (let i = 0; i < model.dimension; i++) exemplars[e * model.dimension + i] = int8[e * model.dimension + i]! * scale;
  }
  model.exemplars = exemplars;
  return model;
}

/** A piece of the user side of the conversation to embed and score. */
export interface Segment {
  text: string;
  /** `message`: the latest message or the context join; `sentence`: one sentence of the latest message. */
  kind: 'message' | 'sentence';
}

// Bounds keep the embedding cost per request small whatever is pasted.
const MAX_MESSAGE_CHARS = 600;
const MAX_SENTENCE_CHARS = 300;
const MAX_SENTENCES = 10;
const CONTEXT_TURNS = 2;
const CONTEXT_CHARS_PER_TURN = 240;

const tail = (text: string, max: number): string => (text.length <= max ? text : text.slice(text.length - max));

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
 * What to embed for one request: the latest message (its end, if long), each of its sentences when there are
 * several (the first two and the last eight of a long paste: an emergency is often the last line of a chatty
 * message), and the last earlier user turns joined with the latest message (a cue split across turns).
 */
export function segmentConversation(latest: string, earlier: readonly string[] = []): Segment[] {
  const segments: Segment[] = [];
  const trimmed = latest.trim();
  if (!trimmed) return segments;
  segments.push({ text: tail(trimmed, MAX_MESSAGE_CHARS), kind: 'message' });
  const sentences = splitSentences(trimmed);
  if (sentences.length > 1) {
    const picked =
      sentences.length <= MAX_SENTENCES
        ? sentences
        : [...sentences.slice(0, 2), ...sentences.slice(sentences.length - (MAX_SENTENCES - 2))];
    for (const s of picked) segments.push({ text: tail(s, MAX_SENTENCE_CHARS), kind: 'sentence' });
  }
  const context = earlier
    .filter((m) => typeof m === 'string' && m.trim() && m !== latest)
    .slice(-CONTEXT_TURNS)
    .map((m) => tail(m.trim(), CONTEXT_CHARS_PER_TURN));
  if (context.length > 0) {
    segments.push({ text: [...context, tail(trimmed, CONTEXT_CHARS_PER_TURN)].join('\n'), kind: 'message' });
  }
  return segments;
}

/** Class probabilities of the linear classifier for one unit vector (softmax over the linear scores). */
export function linearProbabilities(model: SemanticModel, vector: readonly number[]): number[] {
  const scores = model.weights.map((row, c) => {
    let s = model.bias[c]!;
    for (let i = 0; i < row.length; i++) s += row[i]! * (vector[i] ?? 0);
    return s;
  });
  const max = Math.max(...scores);
  const exps = scores.map((s) => Math.exp(s - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / sum);
}

/** Class distribution of the k nearest exemplars, weighted by a softmax over their cosine similarity. */
export function neighbourProbabilities(model: SemanticModel, vector: readonly number[]): number[] {
  const out = new Array<number>(model.classes.length).fill(0);
  const exemplars = model.exemplars;
  const n = model.exemplarClasses.length;
  if (!exemplars || n === 0) return out;
  const d = model.dimension;
  const k = Math.min(model.knn.k, n);
  const query = Float32Array.from({ length: d }, (_, i) => vector[i] ?? 0);
  const topSim = new Float64Array(k).fill(-Infinity);
  const topIdx = new Int32Array(k).fill(-1);
  for (let e = 0; e < n; e++) {
    let s = 0;
    const base = e * d;
    for (let i = 0; i < d; i++) s += exemplars[base + i]! * query[i]!;
    if (s <= topSim[k - 1]!) continue;
    let j = k - 1;
    while (j > 0 && topSim[j - 1]! < s) {
      topSim[j] = topSim[j - 1]!;
      topIdx[j] = topIdx[j - 1]!;
      j--;
    }
    topSim[j] = s;
    topIdx[j] = e;
  }
  let total = 0;
  for (let j = 0; j < k; j++) {
    const w = Math.exp((topSim[j]! - topSim[0]!) * model.knn.temperature);
    out[model.exemplarClasses[topIdx[j]!]!]! += w;
    total += w;
  }
  return out.map((w) => w / total);
}

/** Class probabilities of the semantic stage: the mean of the linear classifier and the neighbour vote. */
export function classProbabilities(model: SemanticModel, vector: readonly number[]): number[] {
  const linear = linearProbabilities(model, vector);
  const neighbours = neighbourProbabilities(model, vector);
  return linear.map((p, i) => (p + neighbours[i]!) / 2);
}

/** The semantic verdict for a request: the most alarming segment. */
export interface SemanticVerdict {
  category: RedFlagCategory;
  /** Emergency probability (1 - p(none)) of the deciding segment. */
  probability: number;
  segment: Segment;
}

/** What the semantic stage makes of a request. */
export interface SemanticScore {
  /** The most alarming segment past its threshold, or null. */
  verdict: SemanticVerdict | null;
  /** The highest emergency probability of any segment (for the veto on rule hits). */
  highest: number;
}

/** Scores embedded segments: the verdict of the most alarming segment past its threshold, and the highest score. */
export function scoreSegments(
  model: SemanticModel,
  segments: readonly Segment[],
  vectors: readonly (readonly number[])[],
): SemanticScore {
  let verdict: SemanticVerdict | null = null;
  let bestMargin = 0;
  let highest = 0;
  const noneIndex = model.classes.length - 1;
  segments.forEach((segment, i) => {
    const vector = vectors[i];
    if (!vector) return;
    const p = classProbabilities(model, vector);
    const emergency = 1 - p[noneIndex]!;
    highest = Math.max(highest, emergency);
    const threshold = segment.kind === 'sentence' ? model.sentenceThreshold : model.messageThreshold;
    const margin = emergency - threshold;
    if (margin < 0 || (verdict && margin <= bestMargin)) return;
    let top = 0;
    for (let c = 1; c < noneIndex; c++) if (p[c]! > p[top]!) top = c;
    const category = model.classes[top];
    if (!isRedFlagCategory(category)) return;
    verdict = { category, probability: emergency, segment };
    bestMargin = margin;
  });
  return { verdict, highest };
}
