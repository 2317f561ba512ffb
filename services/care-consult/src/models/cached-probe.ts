import { fetchJson, type FetchFn } from '@care/service-kit';

/** Outcome of a probe: reachable with a JSON body, or a short reason safe to show to clients. */
export type ProbeResult<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * GETs `url` and parses JSON within `timeoutMs`. A failure becomes its short reason (timeout, refused, HTTP
 * status, invalid JSON), so no header, key or body text leaks into a health or models response.
 */
export async function probeJson<T>(
  fetchFn: FetchFn,
  url: string,
  opts: { timeoutMs: number; headers?: Record<string, string> },
): Promise<ProbeResult<T>> {
  try {
    const { body } = await fetchJson<T>(url, { ...opts, fetchFn });
    return body === undefined ? { ok: false, error: 'invalid JSON answer' } : { ok: true, value: body };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : 'unreachable' };
  }
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
