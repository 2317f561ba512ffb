/** The fetch function outbound probes use; tests pass one that talks to a local fake server. */
export type FetchFn = typeof fetch;

/** Outcome of a probe: reachable with a JSON body, or a short reason safe to show to clients. */
export type ProbeResult<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * GETs `url` and parses JSON within `timeoutMs`. Errors are reduced to a short reason (timeout, refused,
 * HTTP status) so no header, key or body text leaks into a health or models response.
 */
export async function probeJson<T>(
  fetchFn: FetchFn,
  url: string,
  opts: { timeoutMs: number; headers?: Record<string, string> },
): Promise<ProbeResult<T>> {
  try {
    const res = await fetchFn(url, { headers: { accept: 'application/json', ...opts.headers }, signal: AbortSignal.timeout(opts.timeoutMs) });
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      return { ok: false, error: `HTTP ${res.status}` };
    }
    return { ok: true, value: (await res.json()) as T };
  } catch (err) {
    return { ok: false, error: reason(err, opts.timeoutMs) };
  }
}

function reason(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; cause?: { code?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return `no answer within ${timeoutMs} ms`;
  const code = e?.cause?.code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
  if (err instanceof SyntaxError) return 'invalid JSON answer';
  return code ? `unreachable (${code})` : 'unreachable';
}

/**
 * A value computed by an async probe, reused for `ttlMs`; concurrent callers share one in-flight probe, so
 * a burst of health checks sends one request to the dependency.
 */
export class CachedProbe<T> {
  private value?: { at: number; result: T };
  private inflight?: Promise<T>;

  constructor(
    private readonly run: () => Promise<T>,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The cached result while fresh, else a new probe. */
  get(): Promise<T> {
    if (this.value && this.now() - this.value.at < this.ttlMs) return Promise.resolve(this.value.result);
    this.inflight ??= this.run()
      .then((result) => {
        this.value = { at: this.now(), result };
        return result;
      })
      .finally(() => {
        this.inflight = undefined;
      });
    return this.inflight;
  }
}

/** A URL without its userinfo part, safe to report. */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString().replace(/\/$/, '');
  } catch {
    return '';
  }
}

/** Joins a base URL and a path without doubling slashes. */
export function joinUrl(base: string, p: string): string {
  return `${base.replace(/\/+$/, '')}/${p.replace(/^\/+/, '')}`;
}
