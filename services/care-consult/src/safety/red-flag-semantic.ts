import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createSimilarityIndex, pageBackedFloat32Array } from '@care/sentence-encoder';
import type { Segment } from './red-flag-segments';
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
  /**
   * When in doubt, refuse: the categories whose miss costs most (suicidal intent, self-harm) also fire when
   * their summed probability reaches this lower threshold, whatever the other classes say. Optional.
   */
  highCost?: { classes: string[]; threshold: number };
  /** Nearest-neighbour vote: how many neighbours, and the softmax temperature over their cosine similarity. */
  knn: { k: number; temperature: number };
  /** Class index of each exemplar; their vectors are in {@link SemanticModel.exemplars}. */
  exemplarClasses: number[];
  /** Per-exemplar scale of the int8 vectors in the `.bin` file (value = byte * scale). */
  exemplarScales: number[];
  /** Exemplar vectors, row-major, filled by {@link loadSemanticModel} from the `.bin` file. */
  exemplars?: Float32Array;
  /**
   * The exemplars in the tensor engine ({@link indexExemplars}, ADR 0018): the neighbour vote reads its similarities
   * from here when set, and `exemplars` may then be released.
   */
  exemplarIndex?: ExemplarIndex;
  /** sha256 of the training files, so a test can tell the shipped model is not stale. */
  trainedOn: string;
  /** The `model` name of the encoder whose vectors it was trained on; the screen refuses to start with another. */
  embedder?: string;
}

/** Where the shipped model lives. */
const SEMANTIC_MODEL_PATH = resolve(__dirname, '../../data/red-flags/semantic-model.json');

/** The int8 exemplar vectors, next to the model. */
function exemplarsPath(modelPath: string): string {
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
  if (!ok)
    throw new Error(`red-flag semantic model at ${path} is malformed or was trained for other categories`);
  const bytes = readFileSync(exemplarsPath(path));
  if (bytes.length !== model.exemplarClasses.length * model.dimension) {
    throw new Error(`red-flag semantic exemplars do not match the model at ${path}`);
  }
  const int8 = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  // Page-backed: released to the system when the screen drops it for its index (ADR 0018).
  const exemplars = pageBackedFloat32Array(int8.length);
  for (let e = 0; e < model.exemplarClasses.length; e++) {
    const scale = model.exemplarScales[e]!;
    for (let i = 0; i < model.dimension; i++)
      exemplars[e * model.dimension + i] = int8[e * model.dimension + i]! * scale;
  }
  model.exemplars = exemplars;
  return model;
}

let shipped: SemanticModel | undefined;

/**
 * The shipped model, read once per process and shared by every screen in it (read-only): its exemplar matrix alone
 * is 10 MB of Float32Array, and a process may hold more than one app (tests, the chat-streams bench's server).
 */
export function shippedSemanticModel(): SemanticModel {
  return (shipped ??= loadSemanticModel());
}

/** Similarities of queries with the exemplars: `createSimilarityIndex` of `@care/sentence-encoder` fits. */
export interface ExemplarIndex {
  readonly count: number;
  similarities(queries: readonly ArrayLike<number>[]): Float32Array[];
}

const indexing = new WeakMap<SemanticModel, Promise<void>>();

/**
 * Puts the model's exemplars into the encoder's tensor engine, where the neighbour vote's dot products run as one
 * matrix multiply (ADR 0018: ~1.5 ms -> ~0.2 ms per scored segment with the shipped 6,206 exemplars). Once per
 * model (a second call waits for the first). `release` drops the JavaScript copy of the exemplars (12.7 MB for the
 * shipped model) once the engine holds them. A model without exemplars is left as it is.
 */
export function indexExemplars(model: SemanticModel, options: { release?: boolean } = {}): Promise<void> {
  let done = indexing.get(model);
  if (!done) {
    done = (async () => {
      const rows = model.exemplars;
      const count = model.exemplarClasses.length;
      if (model.exemplarIndex || !rows || count === 0) return;
      const d = model.dimension;
      const columns = pageBackedFloat32Array(count * d);
      for (let e = 0; e < count; e++) for (let i = 0; i < d; i++) columns[i * count + e] = rows[e * d + i]!;
      model.exemplarIndex = await createSimilarityIndex(columns, count, d);
      if (options.release) model.exemplars = undefined;
    })();
    indexing.set(model, done);
  }
  return done;
}

/** Class probabilities of the linear classifier for one unit vector (softmax over the linear scores). */
function linearProbabilities(model: SemanticModel, vector: ArrayLike<number>): number[] {
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

/**
 * Class distribution of the k nearest exemplars of each query, weighted by a softmax over their cosine similarity.
 * One pass over the exemplar matrix serves every query (each row is read once, whatever the number of segments);
 * the top k are kept by insertion, without sorting.
 */
function neighbourProbabilities(model: SemanticModel, queries: readonly ArrayLike<number>[]): number[][] {
  const classes = model.classes.length;
  const exemplars = model.exemplars;
  const n = model.exemplarClasses.length;
  const k = Math.min(model.knn.k, n);
  if (model.exemplarIndex && model.exemplarIndex.count === n && n > 0) {
    const sims = model.exemplarIndex.similarities(queries);
    const topSim = new Float64Array(k);
    const topIdx = new Int32Array(k);
    return sims.map((row) => {
      topSim.fill(-Infinity);
      topIdx.fill(-1);
      for (let e = 0; e < n; e++) insertTop(topSim, topIdx, 0, k, row[e]!, e);
      return vote(model, topSim, topIdx, 0, k);
    });
  }
  if (!exemplars || n === 0) return queries.map(() => new Array<number>(classes).fill(0));
  const d = model.dimension;
  // One typed array per query.
  const vectors = queries.map((v) => {
    const out = new Float32Array(d);
    for (let i = 0; i < d; i++) out[i] = v[i] ?? 0;
    return out;
  });
  const topSim = new Float64Array(queries.length * k).fill(-Infinity);
  const topIdx = new Int32Array(queries.length * k).fill(-1);
  // Exemplar-major, so each exemplar row is read once for all queries. Four partial sums per dot product: about
  // 3.5x faster than one running sum on V8 (the vote over ~5,000 exemplars was ~5 ms per segment, ADR 0414).
  for (let e = 0; e < n; e++) {
    const base = e * d;
    for (let j = 0; j < vectors.length; j++) {
      const v = vectors[j]!;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      let i = 0;
      for (; i + 3 < d; i += 4) {
        const b = base + i;
        s0 += exemplars[b]! * v[i]!;
        s1 += exemplars[b + 1]! * v[i + 1]!;
        s2 += exemplars[b + 2]! * v[i + 2]!;
        s3 += exemplars[b + 3]! * v[i + 3]!;
      }
      for (; i < d; i++) s0 += exemplars[base + i]! * v[i]!;
      insertTop(topSim, topIdx, j * k, k, s0 + s1 + (s2 + s3), e);
    }
  }
  return queries.map((_, j) => vote(model, topSim, topIdx, j * k, k));
}

/** The class distribution of one query's k best exemplars (at `tb`), weighted by a softmax over similarity. */
function vote(
  model: SemanticModel,
  topSim: Float64Array,
  topIdx: Int32Array,
  tb: number,
  k: number,
): number[] {
  const out = new Array<number>(model.classes.length).fill(0);
  let total = 0;
  for (let m = 0; m < k; m++) {
    const w = Math.exp((topSim[tb + m]! - topSim[tb]!) * model.knn.temperature);
    out[model.exemplarClasses[topIdx[tb + m]!]!]! += w;
    total += w;
  }
  return out.map((w) => w / total);
}

/** Inserts similarity `s` of exemplar `e` into the descending top-k list at `tb` when it beats the last entry. */
function insertTop(
  topSim: Float64Array,
  topIdx: Int32Array,
  tb: number,
  k: number,
  s: number,
  e: number,
): void {
  if (s <= topSim[tb + k - 1]!) return;
  let m = k - 1;
  while (m > 0 && topSim[tb + m - 1]! < s) {
    topSim[tb + m] = topSim[tb + m - 1]!;
    topIdx[tb + m] = topIdx[tb + m - 1]!;
    m--;
  }
  topSim[tb + m] = s;
  topIdx[tb + m] = e;
}

/** Class probabilities of the semantic stage for each vector: the mean of the linear classifier and the neighbour vote. */
export function classProbabilities(model: SemanticModel, vectors: readonly ArrayLike<number>[]): number[][] {
  const neighbours = neighbourProbabilities(model, vectors);
  return vectors.map((v, j) => linearProbabilities(model, v).map((p, i) => (p + neighbours[j]![i]!) / 2));
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
  vectors: readonly ArrayLike<number>[],
): SemanticScore {
  let verdict: SemanticVerdict | null = null;
  let bestMargin = 0;
  let highest = 0;
  const noneIndex = model.classes.length - 1;
  const probabilities = classProbabilities(model, vectors.slice(0, segments.length));
  const highCost = (model.highCost?.classes ?? []).map((c) => model.classes.indexOf(c)).filter((c) => c >= 0);
  const consider = (
    segment: Segment,
    p: number[],
    probability: number,
    margin: number,
    among: readonly number[],
  ): void => {
    if (margin < 0 || (verdict && margin <= bestMargin)) return;
    let top = among[0]!;
    for (const c of among) if (p[c]! > p[top]!) top = c;
    const category = model.classes[top];
    if (!isRedFlagCategory(category)) return;
    verdict = { category, probability, segment };
    bestMargin = margin;
  };
  const emergencyClasses = model.classes.slice(0, noneIndex).map((_, c) => c);
  segments.forEach((segment, i) => {
    const p = probabilities[i];
    if (!p) return;
    const emergency = 1 - p[noneIndex]!;
    highest = Math.max(highest, emergency);
    // A sentence of a message that asks what to do now is held to the message threshold (ADR 0426).
    const threshold =
      segment.kind === 'message'
        ? model.messageThreshold
        : segment.asksNow
          ? Math.min(model.sentenceThreshold, model.messageThreshold)
          : model.sentenceThreshold;
    // A segment of a follow-up that resolves the earlier scare refuses only on the high-cost check (ADR 0418, 0428).
    if (!segment.resolved) consider(segment, p, emergency, emergency - threshold, emergencyClasses);
    if (highCost.length > 0 && model.highCost) {
      const risk = highCost.reduce((a, c) => a + p[c]!, 0);
      consider(segment, p, risk, risk - model.highCost.threshold, highCost);
    }
  });
  return { verdict, highest };
}
