import { fetchJson, FetchJsonError, ServiceUnavailableError } from '@care/service-kit';

/** What the service needs from an embedding model: a named vector space and a way to map texts into it. */
export interface EmbeddingProvider {
  /** Provider kind as configured: `builtin`, `ollama`, `openai`, `hashing`. */
  readonly kind: string;
  /** Identity of the vector space (`<kind>:<model>`); a partition records it and never mixes two. */
  readonly model: string;
  /** Where the provider lives (a URL) or `in-process`. */
  readonly location: string;
  /** Vector size; hosted providers may have to ask the model once (then the answer is cached). */
  dimension(): Promise<number>;
  /** One vector per text, in order. Throws {@link EmbeddingUnavailableError} when the provider cannot answer. */
  embed(texts: string[]): Promise<number[][]>;
}

/** 503 problem: the embedding provider is down, timed out, or answered something unusable. */
export class EmbeddingUnavailableError extends ServiceUnavailableError {
  constructor(detail: string, cause?: unknown) {
    super(`The embedding provider is unavailable: ${detail}`, 'EMBEDDING_UNAVAILABLE');
    if (cause !== undefined) Object.defineProperty(this, 'cause', { value: cause });
  }
}

/**
 * POSTs JSON to a hosted embedding provider and returns the parsed answer. Every failure (refused connection,
 * timeout, non-2xx status, non-JSON body) becomes an {@link EmbeddingUnavailableError}, so callers answer 503;
 * the detail names the status but never echoes the provider's body or our key.
 */
export async function postToProvider(
  url: string,
  body: unknown,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<unknown> {
  try {
    return (await fetchJson(url, { method: 'POST', body, headers, timeoutMs })).body;
  } catch (err) {
    if (!(err instanceof FetchJsonError)) throw err;
    const detail = {
      timeout: err.message,
      connect: 'the provider cannot be reached',
      status: `the provider answered HTTP ${err.status}`,
      'invalid-json': 'the provider answered with a body that is not JSON',
    }[err.kind];
    throw new EmbeddingUnavailableError(detail, err);
  }
}

/** Scales a vector to unit length (cosine distance then equals 1 - dot product); zero vectors stay zero. */
export function normalize(vector: number[]): number[] {
  let sum = 0;
  for (const x of vector) sum += x * x;
  const norm = Math.sqrt(sum);
  return norm > 0 ? vector.map((x) => x / norm) : vector.slice();
}

/** Checks a provider's answer: one finite vector per text, all of the expected size. */
export function checkVectors(vectors: unknown, count: number, dimension: number | undefined): number[][] {
  if (!Array.isArray(vectors) || vectors.length !== count) {
    throw new EmbeddingUnavailableError(
      `expected ${count} vectors, got ${Array.isArray(vectors) ? vectors.length : 'none'}`,
    );
  }
  const size = dimension ?? (Array.isArray(vectors[0]) ? vectors[0].length : 0);
  for (const v of vectors) {
    if (
      !Array.isArray(v) ||
      v.length !== size ||
      size === 0 ||
      !v.every((x) => typeof x === 'number' && Number.isFinite(x))
    ) {
      throw new EmbeddingUnavailableError(`the answer is not ${count} numeric vectors of size ${size}`);
    }
  }
  return vectors as number[][];
}
