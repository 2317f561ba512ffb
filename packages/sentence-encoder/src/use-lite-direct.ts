/**
 * USE-lite without tfjs's asynchronous graph executor (ADR 0017).
 *
 * The model graph has two `Where` ops, and tfjs runs any graph holding a dynamic op through `executeAsync`, which
 * walks the graph node by node with promise bookkeeping: about a fifth of the CPU of a short text. Both `Where`s
 * only compute positions that follow from the token ids alone:
 * - `ClipToMaxLength/Where`: which rows of the sparse input sit before the 128th token of their text;
 * - `StoreMask/Where`: the [text, position] of every dense cell holding a token (id > the dense default).
 * We compute both in JS from the tokenizer's output and feed them in place of the ops, so the rest of the graph
 * (every kernel and weight, unchanged) runs through the synchronous `execute`; the tokenizer runs in linear time
 * ({@link linearTokenizer}). The vectors are bit-identical:
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
/** A node of the library tokenizer's trie: `word` is [characters, score, vocabulary index]. */
interface TrieNode {
  end: boolean;
  word: [string[], number, number];
  children: Record<string, TrieNode | undefined>;
}
/** `@energetic-ai/embeddings`' SentencePiece (unigram) tokenizer. */
export interface UseLiteTokenizer {
  encode(text: string): number[];
  vocabulary?: [string, number][];
  trie?: { root: TrieNode };
}
/** `@energetic-ai/embeddings`' model: its tokenizer and tfjs graph model. */
export interface UseLiteLibraryModel {
  embed(input: string[]): Promise<number[][]>;
  tokenizer: UseLiteTokenizer;
  model: GraphModelLike;
}

const SEPARATOR = '\u2581';

/**
 * The library tokenizer's `encode` in linear time, over the library's own trie and vocabulary, with the same
 * result for every text. The library hands each position a copy of the rest of the text (`symbols.slice(i)`),
 * so a 2,000-character text took ~20 ms and an 8,000-character one ~110 ms before the model saw it. Kept as in
 * the library: the best path is the highest summed piece score, a later candidate wins a tie, a score of exactly
 * 0 counts as unset, a character no piece starts with is the unknown piece (id 0) with score 0, the walk back
 * steps by the vocabulary entry's string length, and runs of unknown pieces collapse to one.
 */
export function linearTokenizer(tokenizer: UseLiteTokenizer): ((text: string) => number[]) | undefined {
  const vocabulary = tokenizer.vocabulary;
  const root = tokenizer.trie?.root;
  if (!Array.isArray(vocabulary) || !root?.children) return undefined;
  return (text: string): number[] => {
    const normalized = text.normalize('NFKC');
    const input = normalized.length > 0 ? SEPARATOR + normalized.replace(/ /g, SEPARATOR) : normalized;
    const symbols = Array.from(input);
    const n = symbols.length;
    // Candidates ending at each position, in the order the library visits them (ascending start: filled as i grows).
    const endsScore: number[][] = Array.from({ length: n + 1 }, () => []);
    const endsIndex: number[][] = Array.from({ length: n + 1 }, () => []);
    const endsLength: number[][] = Array.from({ length: n + 1 }, () => []);
    for (let i = 0; i < n; i++) {
      let node = root.children[symbols[i]];
      let found = false;
      for (let j = i; j < n && node; j++) {
        if (node.end) {
          const length = node.word[0].length;
          endsScore[i + length].push(node.word[1]);
          endsIndex[i + length].push(node.word[2]);
          endsLength[i + length].push(length);
          found = true;
        }
        node = j + 1 < n ? node.children[symbols[j + 1]] : undefined;
      }
      if (!found) {
        endsScore[i + 1].push(0);
        endsIndex[i + 1].push(0);
        endsLength[i + 1].push(1);
      }
    }
    const best = new Array<number>(n + 1).fill(0);
    const words = new Array<number>(n + 1).fill(0);
    for (let end = 0; end <= n; end++) {
      const scores = endsScore[end];
      for (let k = 0; k < scores.length; k++) {
        const score = scores[k] + best[end - endsLength[end][k]];
        if (best[end] === 0 || score >= best[end]) {
          best[end] = score;
          words[end] = endsIndex[end][k];
        }
      }
    }
    const reversed: number[] = [];
    for (let at = words.length - 1; at > 0; at -= vocabulary[words[at]][0].length) reversed.push(words[at]);
    const merged: number[] = [];
    let previousUnknown = false;
    for (const id of reversed) {
      if (!(previousUnknown && id === 0)) merged.push(id);
      previousUnknown = id === 0;
    }
    return merged.reverse();
  };
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

  const encode = linearTokenizer(library.tokenizer) ?? ((t: string) => library.tokenizer.encode(t));
  const embed = (texts: string[]): number[][] => {
    const tokens = texts.map(encode);
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
