import {
  checkVectors,
  EmbeddingUnavailableError,
  normalize,
  postToProvider,
  type EmbeddingProvider,
} from './embedding-provider';
import { joinUrl } from '@care/service-kit';

/** Settings of {@link OllamaEmbeddingProvider}. */
export interface OllamaOptions {
  baseUrl: string;
  model: string;
  /** Expected size; unset: learnt from the first answer. */
  dimensions?: number;
  timeoutMs: number;
}

/** Embeddings from an Ollama server: `POST {baseUrl}/api/embed {model, input: [...]}` -> `{embeddings: [[...]]}`. */
export class OllamaEmbeddingProvider implements EmbeddingProvider {
  readonly kind = 'ollama';
  readonly model: string;
  readonly location: string;
  private size?: number;

  constructor(private readonly options: OllamaOptions) {
    this.model = `ollama:${options.model}`;
    this.location = options.baseUrl;
    this.size = options.dimensions;
  }

  async dimension(): Promise<number> {
    if (this.size === undefined) await this.embed(['dimension probe']);
    return this.size!;
  }

  async embed(texts: string[]): Promise<number[][]> {
    if (texts.length === 0) return [];
    const answer = await postToProvider(
      joinUrl(this.options.baseUrl, '/api/embed'),
      { model: this.options.model, input: texts },
      {},
      this.options.timeoutMs,
    );
    const embeddings = (answer as { embeddings?: unknown } | null)?.embeddings;
    if (embeddings === undefined)
      throw new EmbeddingUnavailableError('the answer has no "embeddings" member');
    const vectors = checkVectors(embeddings, texts.length, this.size);
    this.size ??= vectors[0].length;
    return vectors.map(normalize);
  }
}
