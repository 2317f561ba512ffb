import {
  checkVectors,
  EmbeddingUnavailableError,
  normalize,
  postToProvider,
  type EmbeddingProvider,
} from './embedding-provider';
import { joinUrl } from '@care/service-kit';

/** Settings of {@link OpenAiEmbeddingProvider}. */
export interface OpenAiOptions {
  /** Base URL including the version, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  apiKey: string;
  model: string;
  /** Sent as `dimensions` (models that support shortening) and checked on the answer. */
  dimensions?: number;
  timeoutMs: number;
}

/**
 * Embeddings from the OpenAI API (or a compatible server): `POST {baseUrl}/embeddings` with a bearer key,
 * `{model, input: [...], encoding_format: "float"}` -> `{data: [{index, embedding}]}` (re-ordered by `index`).
 */
export class OpenAiEmbeddingProvider implements EmbeddingProvider {
  readonly kind = 'openai';
  readonly model: string;
  readonly location: string;
  private size?: number;

  constructor(private readonly options: OpenAiOptions) {
    this.model = `openai:${options.model}${options.dimensions ? `@${options.dimensions}` : ''}`;
    this.location = options.baseUrl;
    this.size = options.dimensions;
  }

  async dimension(): Promise<number> {
    if (this.size === undefined) await this.embed(['dimension probe']);
    return this.size!;
  }

  async embed(texts: string[]): Promise<number[][]> {
    if (texts.length === 0) return [];
    const body: Record<string, unknown> = {
      model: this.options.model,
      input: texts,
      encoding_format: 'float',
    };
    if (this.options.dimensions) body.dimensions = this.options.dimensions;
    const answer = await postToProvider(
      joinUrl(this.options.baseUrl, '/embeddings'),
      body,
      { authorization: `Bearer ${this.options.apiKey}` },
      this.options.timeoutMs,
    );
    const data = (answer as { data?: unknown } | null)?.data;
    if (!Array.isArray(data)) throw new EmbeddingUnavailableError('the answer has no "data" list');
    const ordered = [...data].sort((a, b) => Number(a?.index) - Number(b?.index)).map((d) => d?.embedding);
    const vectors = checkVectors(ordered, texts.length, this.size);
    this.size ??= vectors[0].length;
    return vectors.map(normalize);
  }
}
