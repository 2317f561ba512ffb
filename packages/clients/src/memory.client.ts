import type {
  RecallRequest,
  RecallResponse,
  RememberBatchRequest,
  RememberBatchResult,
  RememberRequest,
  MemoryView,
  Static,
} from '@care/contracts';
import { fetchJson, FetchJsonError, type FetchFn } from '@care/service-kit';

/** A recalled memory as the memory service answers it (`POST /api/v1/memory/recall`). */
export type RecalledMemory = Static<typeof RecallResponse>['results'][number];
/** The answer of a batch remember: per item, `created` or `unchanged`. */
export type RememberBatchAnswer = Static<typeof RememberBatchResult>;
/** A memory as the memory service shows it (the answer of `remember`). */
export type MemoryRecord = Static<typeof MemoryView>;

/** Settings of {@link MemoryClient}. */
export interface MemoryClientOptions {
  /** `MEMORY_BASE_URL`. */
  baseUrl: string;
  /** `MEMORY_API_KEY`, sent as `X-API-Key` when set. */
  apiKey?: string;
  /** Bound of one call unless the call names another (default 2000 ms). */
  timeoutMs?: number;
  fetchFn?: FetchFn;
}

/** Per-call options: the caller's abort signal and a bound other than the client's. */
export interface MemoryCallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/**
 * The memory service could not be used: `unavailable` (unreachable, too slow, 5xx, unreadable answer) or `rejected`
 * (4xx, `status` says which). The message names at most the status, never the URL, the key or the answer's body.
 */
export class MemoryCallError extends Error {
  constructor(
    readonly kind: 'unavailable' | 'rejected',
    readonly status: number | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'MemoryCallError';
  }
}

/**
 * Client of the memory service for the other services: recall, remember (one or a batch), forget and a health
 * probe. Every call is bounded, abortable by the caller (its abort is rethrown as is), partitioned by tenant
 * through `X-Tenant-Id`, and sends `X-API-Key` when configured.
 */
export class MemoryClient {
  private readonly baseUrl: string;

  constructor(private readonly options: MemoryClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  /** The base URL in use (carries no key unless the configured URL does: report it through `safeUrl`). */
  get url(): string {
    return this.baseUrl;
  }

  /** `POST /api/v1/memory/recall`: the memories the service ranks for the query, best first. */
  async recall(
    tenantId: string,
    request: RecallRequest,
    options?: MemoryCallOptions,
  ): Promise<RecalledMemory[]> {
    const body = await this.call<Partial<Static<typeof RecallResponse>>>(
      tenantId,
      'POST',
      '/api/v1/memory/recall',
      request,
      options,
    );
    return Array.isArray(body?.results) ? body.results : [];
  }

  /** `POST /api/v1/memory/remember`: stores one memory; its id when the service names it. */
  async remember(
    tenantId: string,
    memory: RememberRequest,
    options?: MemoryCallOptions,
  ): Promise<string | undefined> {
    const body = await this.call<Partial<MemoryRecord>>(
      tenantId,
      'POST',
      '/api/v1/memory/remember',
      memory,
      options,
    );
    return typeof body?.id === 'string' ? body.id : undefined;
  }

  /** `POST /api/v1/memory/remember/batch` (ADR 0109): up to 64 memories, all or none. */
  async rememberBatch(
    tenantId: string,
    request: RememberBatchRequest,
    options?: MemoryCallOptions,
  ): Promise<RememberBatchAnswer> {
    const body = await this.call<RememberBatchAnswer>(
      tenantId,
      'POST',
      '/api/v1/memory/remember/batch',
      request,
      options,
    );
    return { items: Array.isArray(body?.items) ? body.items : [] };
  }

  /** `DELETE /api/v1/memory/{id}`. */
  async forget(tenantId: string, id: string, options?: MemoryCallOptions): Promise<void> {
    await this.call(
      tenantId,
      'DELETE',
      `/api/v1/memory/${encodeURIComponent(id)}`,
      undefined,
      options,
      'none',
    );
  }

  /** `GET /api/v1/system/health`: true when it answers 2xx with JSON within the bound; never throws. */
  async isHealthy(options?: MemoryCallOptions): Promise<boolean> {
    try {
      await this.call(undefined, 'GET', '/api/v1/system/health', undefined, options);
      return true;
    } catch {
      return false;
    }
  }

  private async call<T>(
    tenantId: string | undefined,
    method: string,
    path: string,
    body: unknown,
    options: MemoryCallOptions = {},
    read: 'json' | 'none' = 'json',
  ): Promise<T | undefined> {
    const headers: Record<string, string> = {};
    if (tenantId !== undefined) headers['x-tenant-id'] = tenantId;
    if (this.options.apiKey) headers['x-api-key'] = this.options.apiKey;
    try {
      const answer = await fetchJson<T>(`${this.baseUrl}${path}`, {
        method,
        headers,
        body,
        read,
        timeoutMs: options.timeoutMs ?? this.options.timeoutMs ?? 2000,
        signal: options.signal,
        fetchFn: this.options.fetchFn,
      });
      return answer.body;
    } catch (err) {
      if (!(err instanceof FetchJsonError)) throw err;
      if (err.kind === 'status') {
        const status = err.status ?? 0;
        throw new MemoryCallError(
          status >= 500 ? 'unavailable' : 'rejected',
          status,
          `memory service answered ${status}`,
        );
      }
      if (err.kind === 'invalid-json') {
        throw new MemoryCallError('unavailable', err.status, 'memory service sent an unreadable answer');
      }
      throw new MemoryCallError('unavailable', undefined, 'memory service unreachable or too slow');
    }
  }
}
