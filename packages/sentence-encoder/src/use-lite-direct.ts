/**
 * USE-lite without tfjs's asynchronous graph executor (ADR 0017).
 *
 * The model graph has two `Where` ops, and tfjs runs any graph holding a dynamic op through `executeAsync`, which
 * walks the graph node by node with promise bookkeeping: about a fifth of the CPU of a short text. Both `Where`s
 * only compute positions that follow from the token ids alone:
 * - `ClipToMaxLength/Where`: which rows of the sparse input sit before the 128th token of their text;
 * - `StoreMask/Where`: the [text, position] of every dense cell holding a token (id > the dense default).
 * We compute both in JS from the tokenizer's output and feed them in place of the ops, so the rest of the graph
 * (every kernel and weight, unchanged) runs through the synchronous `execute`. The vectors are bit-identical:
 * at load a self-check compares the two paths on sample texts and keeps the library's path on any difference.
 */

/** The parts of `@energetic-ai/core` (tfjs) this uses. */
interface Tensor {
  readonly shape: number[];
  dataSync(): Float32Array | Int32Array | Uint8Array;
  dispose(): void;
}
interface Core {
  tensor1d(values: number[], dtype: 'int32'): Tensor;
  tensor2d(values: number[], shape: [number, number], dtype: 'int32'): Tensor;
}
interface GraphNode {
  op: string;
  category: string;
  attrParams: Record<string, unknown>;
}
interface GraphModelLike {
  outputs: { name: string }[];
  execute(inputs: Record<string, Tensor>, outputs: string): Tensor;
  executor: { graph: { nodes: Record<string, GraphNode> }; weightMap: Record<string, Tensor[]> };
}
/** `@energetic-ai/embeddings`' model: its tokenizer and tfjs graph model. */
export interface UseLiteLibraryModel {
  embed(input: string[]): Promise<number[][]>;
  tokenizer: { encode(text: string): number[] };
  model: GraphModelLike;
}

const PREFIX = 'module_apply_default/Encoder_en/KonaTransformer/';
const CLIP_WHERE = `${PREFIX}ClipToMaxLength/Where`;
const CLIP_RESHAPE = `${PREFIX}ClipToMaxLength/Reshape`;
const CLIP_LIMIT = `${PREFIX}ClipToMaxLength/Less/y`;
const MASK_WHERE = `${PREFIX}Encode/TransformerStack/Layer_1/TransformerLayer/FFN/StoreMask/Where`;
const DENSE_DEFAULT = `${PREFIX}Encode/SparseToDense/default_value`;

/** Texts for the load-time self-check: short, long (clipped at 128 tokens), empty, unknown symbols, a batch. */
const SELF_CHECK: string[][] = [
  ['hi'],
  ['my dad has crushing chest pain and is sweating', '', 'naïve café 😀 38.5 °C 10mg'],
  [Array.from({ length: 160 }, (_, i) => `word${i % 17}`).join(' '), 'short one'],
];

/** Positions the two `Where` ops would compute, from each text's token ids. */
export function wherePositions(
  tokens: readonly (readonly number[])[],
  maxTokens: number,
  denseDefault: number,
): { indices: number[]; values: number[]; kept: number[]; cells: number[] } {
  const indices: number[] = [];
  const values: number[] = [];
  const kept: number[] = [];
  const cells: number[] = [];
  let row = 0;
  for (let text = 0; text < tokens.length; text++) {
    const ids = tokens[text];
    for (let position = 0; position < ids.length; position++, row++) {
      indices.push(text, position);
      values.push(ids[position]);
      if (position < maxTokens) {
        kept.push(row);
        // The dense matrix is filled text by text, position by position: its cells come out in row-major order.
        if (ids[position] > denseDefault) cells.push(text, position);
      }
    }
  }
  return { indices, values, kept, cells };
}

/**
 * An `embed` that runs USE-lite through tfjs's synchronous executor, or `undefined` when this graph is not the
 * one this was written for (another model version) or the self-check finds any difference.
 */
export async function directUseLite(
  library: UseLiteLibraryModel,
  core: Core,
): Promise<((texts: string[]) => number[][]) | undefined> {
  const graph = library.model?.executor?.graph?.nodes;
  const weights = library.model?.executor?.weightMap;
  if (!graph || !weights) return undefined;
  const clip = graph[CLIP_WHERE];
  const mask = graph[MASK_WHERE];
  if (clip?.op !== 'Where' || mask?.op !== 'Where' || !graph[CLIP_RESHAPE]) return undefined;
  const limitTensor = weights[CLIP_LIMIT]?.[0];
  const defaultTensor = weights[DENSE_DEFAULT]?.[0];
  if (!limitTensor || !defaultTensor) return undefined;
  const maxTokens = limitTensor.dataSync()[0];
  const denseDefault = defaultTensor.dataSync()[0];
  const output = library.model.outputs[0].name;

  const expected: number[][][] = [];
  for (const texts of SELF_CHECK) expected.push(await library.embed(texts));

  // Fed nodes are never run; tfjs only checks that no dynamic op is left in what it runs, and a fed node's declared
  // input type. Kept so the change can be undone.
  const saved = [clip, mask].map((n) => ({
    node: n,
    op: n.op,
    category: n.category,
    dtype: n.attrParams.dtype,
  }));
  for (const n of [clip, mask]) {
    n.op = 'Placeholder';
    n.category = 'graph';
    delete n.attrParams.dtype;
  }
  const restore = () => {
    for (const s of saved) {
      s.node.op = s.op;
      s.node.category = s.category;
      s.node.attrParams.dtype = s.dtype;
    }
  };

  const embed = (texts: string[]): number[][] => {
    const tokens = texts.map((t) => library.tokenizer.encode(t));
    const { indices, values, kept, cells } = wherePositions(tokens, maxTokens, denseDefault);
    const inputs: Record<string, Tensor> = {
      indices: core.tensor2d(indices, [values.length, 2], 'int32'),
      values: core.tensor1d(values, 'int32'),
      [CLIP_RESHAPE]: core.tensor1d(kept, 'int32'),
      [MASK_WHERE]: core.tensor2d(cells, [cells.length / 2, 2], 'int32'),
    };
    try {
      const result = library.model.execute(inputs, output);
      try {
        const flat = result.dataSync();
        const [rows, width] = result.shape;
        // As many vectors as the graph gives, like the library: trailing texts without a token get none, and the
        // encoder's count check fails that run (memory ADR 0316).
        const vectors: number[][] = [];
        for (let i = 0; i < rows; i++) vectors.push(Array.from(flat.subarray(i * width, (i + 1) * width)));
        return vectors;
      } finally {
        result.dispose();
      }
    } finally {
      for (const t of Object.values(inputs)) t.dispose();
    }
  };

  try {
    const same = SELF_CHECK.every((texts, i) => {
      const got = embed(texts);
      return (
        got.length === expected[i].length && got.every((v, j) => v.every((x, k) => x === expected[i][j][k]))
      );
    });
    if (same) return embed;
  } catch {
    /* the library's path stays */
  }
  restore();
  return undefined;
}
