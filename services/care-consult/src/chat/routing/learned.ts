import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The learned side of routing (ADR 0417): a multinomial logistic regression, one class per agent, over the sentence
 * encoder's unit vector of the message and its words (the lexical side's stems with everyday phrases expanded, as a
 * unit-length bag). Trained offline by `bench/routing/train-router.mjs` on the agents' own texts (description, scope,
 * tags, examples) and the labelled development sets, shipped as `data/routing/router-model.json`. The router adds
 * `weight` x the agent's probability to its meaning + lexical score; it never decides alone, and never below the
 * confidence floor.
 */
export interface RoutingModel {
  /** The `model` name of the encoder whose vectors it was trained on; another encoder's vectors get no learned share. */
  embedder: string;
  dimension: number;
  /** The word features after the vector's: stems (and phrase expansions) seen in training, in weight-column order. */
  vocabulary: string[];
  /** Agent ids, one per class, in weight-row order. */
  agents: string[];
  weights: number[][];
  bias: number[];
  /** Share of the agent's probability added to its combined score. */
  weight: number;
  /** sha256 of the training files (sets, catalog agents, trainer), so a test can tell the shipped model is not stale. */
  trainedOn: string;
}

/** Where the shipped model lives. */
export const ROUTING_MODEL_PATH = resolve(__dirname, '../../../data/routing/router-model.json');

/** Reads and checks a routing model; throws on a malformed file. */
export function loadRoutingModel(path: string = ROUTING_MODEL_PATH): RoutingModel {
  const model = JSON.parse(readFileSync(path, 'utf8')) as RoutingModel;
  const ok =
    typeof model.embedder === 'string' &&
    typeof model.dimension === 'number' &&
    typeof model.weight === 'number' &&
    Array.isArray(model.vocabulary) &&
    Array.isArray(model.agents) &&
    Array.isArray(model.weights) &&
    model.weights.length === model.agents.length &&
    model.weights.every(
      (row) => Array.isArray(row) && row.length === model.dimension + model.vocabulary.length,
    ) &&
    Array.isArray(model.bias) &&
    model.bias.length === model.agents.length;
  if (!ok) throw new Error(`routing model at ${path} is malformed`);
  return model;
}

/** The model's weights laid out for scoring, rows in the order of the given agent ids (absent agents: no row). */
export interface LearnedScorer {
  /**
   * Probability per agent of `ids` (0 for an agent the model was not trained on), summing to at most 1, for a unit
   * message vector and the message's word bag ({@link wordBag}).
   */
  probabilities(vector: ArrayLike<number>, words: ReadonlyMap<string, number>): Float64Array;
}

/** Prepares a model for a catalog: the softmax runs over the model's classes, mapped onto the catalog's order. */
export function learnedScorer(model: RoutingModel, ids: readonly string[]): LearnedScorer {
  const d = model.dimension;
  const width = d + model.vocabulary.length;
  const k = model.agents.length;
  const w = new Float32Array(k * width);
  model.weights.forEach((row, c) => w.set(row, c * width));
  const column = new Map(model.vocabulary.map((term, j) => [term, d + j]));
  const bias = Float64Array.from(model.bias);
  const position = new Map(ids.map((id, i) => [id, i]));
  const target = model.agents.map((id) => position.get(id) ?? -1);
  const scores = new Float64Array(k);
  return {
    probabilities(vector, words) {
      const bag: Array<[number, number]> = [];
      for (const [term, x] of words) {
        const j = column.get(term);
        if (j !== undefined) bag.push([j, x]);
      }
      let max = -Infinity;
      for (let c = 0; c < k; c++) {
        let s = bias[c];
        const base = c * width;
        for (let i = 0; i < d; i++) s += w[base + i] * (vector[i] ?? 0);
        for (const [j, x] of bag) s += w[base + j] * x;
        scores[c] = s;
        if (s > max) max = s;
      }
      let sum = 0;
      for (let c = 0; c < k; c++) sum += scores[c] = Math.exp(scores[c] - max);
      const out = new Float64Array(ids.length);
      for (let c = 0; c < k; c++) if (target[c] >= 0) out[target[c]] = scores[c] / sum;
      return out;
    },
  };
}

/**
 * The word features of recent messages: each turn's terms (the lexical side's `queryTerms`: stems 1, phrase
 * expansions 0.8) times the turn's weight, summed and scaled to unit length. The trainer builds its rows with it.
 */
export function wordBag(
  turns: ReadonlyArray<{ terms: ReadonlyMap<string, number>; weight: number }>,
): Map<string, number> {
  const bag = new Map<string, number>();
  for (const t of turns) for (const [term, x] of t.terms) bag.set(term, (bag.get(term) ?? 0) + x * t.weight);
  let norm = 0;
  for (const x of bag.values()) norm += x * x;
  norm = Math.sqrt(norm) || 1;
  for (const [term, x] of bag) bag.set(term, x / norm);
  return bag;
}

/**
 * sha256 of what a routing model is trained on: each active agent's id and profile texts (catalog order), then the
 * bytes of each development set file (in the trainer's order). A catalog or set edit changes it.
 */
export function routingModelHash(
  agents: ReadonlyArray<{ id: string; texts: readonly string[] }>,
  sets: readonly Uint8Array[],
): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify(agents.map((a) => [a.id, a.texts])));
  for (const set of sets) hash.update(set);
  return hash.digest('hex');
}
