import { SEMANTIC_CLASSES, type SemanticModel } from '../../src/safety';

/** Number of classes of the semantic stage; the toy model's vectors have this many dimensions. */
export const TOY_CLASSES = SEMANTIC_CLASSES.length;

/** The unit vector of class `c`: the toy model scores it as class `c` with probability close to 1. */
export const oneHot = (c: number): number[] =>
  Array.from({ length: TOY_CLASSES }, (_, i) => (i === c ? 1 : 0));

/** Index of a class by name. */
export const classIndex = (name: string): number =>
  SEMANTIC_CLASSES.indexOf(name as (typeof SEMANTIC_CLASSES)[number]);

/**
 * A toy semantic model over one-hot vectors, for tests of the scoring rules: both the linear classifier and the
 * one-neighbour vote give class c to e_c. Thresholds are the caller's.
 */
export function toySemanticModel(
  thresholds: Pick<SemanticModel, 'messageThreshold' | 'sentenceThreshold'> & Partial<SemanticModel>,
): SemanticModel {
  return {
    dimension: TOY_CLASSES,
    classes: [...SEMANTIC_CLASSES],
    weights: Array.from({ length: TOY_CLASSES }, (_, c) => oneHot(c).map((x) => x * 20)),
    bias: new Array<number>(TOY_CLASSES).fill(0),
    vetoBelow: 0.2,
    knn: { k: 1, temperature: 20 },
    exemplarClasses: Array.from({ length: TOY_CLASSES }, (_, c) => c),
    exemplarScales: new Array<number>(TOY_CLASSES).fill(1),
    exemplars: new Float32Array(Array.from({ length: TOY_CLASSES }, (_, c) => oneHot(c)).flat()),
    trainedOn: 'test',
    ...thresholds,
  };
}
