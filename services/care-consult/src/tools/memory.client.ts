/** Settings of the memory service client. */
export interface MemoryClientOptions {
  baseUrl: string;
  apiKey?: string;
  /** Bound of one call; memory is an aid, a slow memory must not hold the answer up. */
  timeoutMs?: number;
  fetchFn?: typeof fetch;
}

/** A recalled memory as the memory service answers it (ADR 0402). */
export interface RecalledMemory {
  id: string;
  text: string;
  type?: string;
  source?: string;
  tier?: string;
  tags?: string[];
  score?: number;
  /** The signals behind the score (vectorSimilarity, textScore, ...), as the memory service reports them. */
  signals?: Record<string, unknown>;
}

/** A server-side recall filter (memory ADR 0310): only memories carrying one of the tags are candidates. */
export interface RecallFilter {
  tagsAny: string[];
}

/** A memory to store. */
export interface NewMemory {
  id?: string;
  text: string;
  type: 'EPISODIC' | 'SEMANTIC' | 'PROCEDURAL' | 'WORKING';
  source: 'USER_STATED' | 'AGENT_INFERRED' | 'DOCUMENT' | 'TOOL_OUTPUT' | 'SYSTEM';
  tags: string[];
}

/** The memory service could not be used: `unavailable` (down, timeout, 5xx) or `rejected` (4xx). */
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
 * Client of the memory service (MEMORY_BASE_URL): recall and remember, partitioned by tenant through the
 * `X-Tenant-Id` header, `X-API-Key` when configured, every call bounded and abortable.
 */
export class MemoryClient {
  private readonly baseUrl: string;
  private readonly fetchFn: typeof fetch;

  constructor(private readonly options: MemoryClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetchFn = options.fetchFn ?? fetch;
  }

  /** The URL in use (for health and logs; carries no key). */
  get url(): string {
    return this.baseUrl;
  }

  /** Recall by fused scoring, narrowed by the service to `filter` when given; results as the service ranks them. */
  async recall(
    tenantId: string,
    query: string,
    topK: number,
    signal: AbortSignal,
    filter?: RecallFilter,
  ): Promise<RecalledMemory[]> {
    const body = await this.post<{ results?: RecalledMemory[] }>(
      tenantId,
      '/api/v1/memory/recall',
      { query, topK, ...(filter ? { filter } : {}) },
      signal,
    );
    return Array.isArray(body.results) ? body.results : [];
  }

  /** Stores one memory; returns its id when the service tells it. */
  async remember(tenantId: string, memory: NewMemory, signal: AbortSignal): Promise<string | undefined> {
    const body = await this.post<{ id?: unknown }>(tenantId, '/api/v1/memory/remember', memory, signal);
    return typeof body.id === 'string' ? body.id : undefined;
  }

  /** True when `GET /api/v1/system/status` answers 2xx within the bound. */
  async ping(signal?: AbortSignal): Promise<boolean> {
    try {
      const res = await this.fetchFn(`${this.baseUrl}/api/v1/system/status`, {
        headers: this.headers(),
        signal: this.bound(signal),
      });
      await res.body?.cancel();
      return res.ok;
    } catch {
      return false;
    }
  }

  private headers(tenantId?: string): Record<string, string> {
    const h: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (tenantId) h['x-tenant-id'] = tenantId;
    if (this.options.apiKey) h['x-api-key'] = this.options.apiKey;
    return h;
  }

  private bound(signal?: AbortSignal): AbortSignal {
    const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 2000);
    return signal ? AbortSignal.any([signal, timeout]) : timeout;
  }

  private async post<T>(tenantId: string, path: string, payload: unknown, signal: AbortSignal): Promise<T> {
    let res: Response;
    try {
      res = await this.fetchFn(`${this.baseUrl}${path}`, {
        method: 'POST',
        headers: this.headers(tenantId),
        body: JSON.stringify(payload),
        signal: this.bound(signal),
      });
    } catch (err) {
      if (signal.aborted) throw err;
      throw new MemoryCallError('unavailable', undefined, 'memory service unreachable or too slow');
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      const kind = res.status >= 500 ? 'unavailable' : 'rejected';
      throw new MemoryCallError(kind, res.status, `memory service answered ${res.status}`);
    }
    try {
      return (await res.json()) as T;
    } catch {
      throw new MemoryCallError('unavailable', res.status, 'memory service sent an unreadable answer');
    }
  }
}
