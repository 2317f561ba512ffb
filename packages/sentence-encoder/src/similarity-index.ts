/**
 * Dot products of query vectors with a fixed set of vectors, on the tensor engine the encoder already runs (tfjs,
 * WASM backend with SIMD: XNNPACK's matrix multiply). ADR 0018: for 6,206 vectors of 512 dimensions one query takes
 * ~0.2 ms and eight ~1.2 ms, against ~1.5 ms per query for the best plain JavaScript loop.
 *
 * The vectors are given as columns (entry `[i * count + r]` is coordinate i of vector r): that is the layout the
 * multiply reads without transposing (with the vectors as rows, tfjs copies the transposed matrix on every call
 * and the multiply is no faster than JavaScript).
 */

/** The parts of `@energetic-ai/core` (tfjs) this uses. */
interface Tensor {
  dataSync(): Float32Array;
  dispose(): void;
}
interface Core {
  ready(): Promise<void>;
  tensor2d(values: Float32Array, shape: [number, number], dtype: 'float32'): Tensor;
  matMul(a: Tensor, b: Tensor): Tensor;
}

/** A fixed matrix of vectors held in the tensor engine's memory. */
export interface SimilarityIndex {
  /** How many vectors it holds. */
  readonly count: number;
  readonly dimension: number;
  /**
   * The dot product of each query with every vector: one Float32Array of `count` per query. Queries shorter than
   * `dimension` are read as zero-padded.
   */
  similarities(queries: readonly ArrayLike<number>[]): Float32Array[];
  /** Frees the engine's copy; the index answers nothing after this. */
  dispose(): void;
}

/**
 * Builds an index over `count` vectors of `dimension` given as columns (see the module comment). The engine keeps its
 * own copy, so the caller may drop `columns` afterwards.
 */
export async function createSimilarityIndex(
  columns: Float32Array,
  count: number,
  dimension: number,
): Promise<SimilarityIndex> {
  if (!Number.isInteger(count) || !Number.isInteger(dimension) || count < 1 || dimension < 1)
    throw new RangeError('a similarity index needs at least one vector of at least one dimension');
  if (columns.length !== count * dimension)
    throw new RangeError(
      `expected ${count * dimension} values (${dimension} x ${count}), got ${columns.length}`,
    );
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the encoder's own engine instance (see loadUseLite)
  const core = require('@energetic-ai/core') as Core;
  await core.ready();
  let matrix: Tensor | undefined = core.tensor2d(columns, [dimension, count], 'float32');
  return {
    count,
    dimension,
    similarities(queries) {
      if (!matrix) throw new Error('the similarity index was disposed');
      if (queries.length === 0) return [];
      const values = new Float32Array(queries.length * dimension);
      queries.forEach((q, j) => {
        const n = Math.min(q.length, dimension);
        for (let i = 0; i < n; i++) values[j * dimension + i] = q[i] ?? 0;
      });
      const input = core.tensor2d(values, [queries.length, dimension], 'float32');
      let product: Tensor | undefined;
      try {
        product = core.matMul(input, matrix);
        // dataSync hands back a copy of the engine's memory: one view per query, no second copy.
        const all = product.dataSync();
        return queries.map((_, j) => all.subarray(j * count, (j + 1) * count));
      } finally {
        input.dispose();
        product?.dispose();
      }
    },
    dispose() {
      matrix?.dispose();
      matrix = undefined;
    },
  };
}
