/** The fetch function outbound calls use; tests may pass one that talks to a local fake server. */
export type FetchFn = typeof fetch;

/** Why an outbound call failed: no answer in time, no connection, a non-2xx status, or a body that is not JSON. */
export type FetchJsonFailure = 'timeout' | 'connect' | 'status' | 'invalid-json';

/**
 * An outbound call that failed. The message is a short reason safe to show to clients and to log
 * (`no answer within 1500 ms`, `connection refused`, `HTTP 503`, `invalid JSON answer`): it never carries the
 * URL (which may hold credentials), a header or the answer's body.
 */
export class FetchJsonError extends Error {
  constructor(
    readonly kind: FetchJsonFailure,
    message: string,
    /** The answer's status (`status` and `invalid-json` failures). */
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'FetchJsonError';
  }
}

/** Options of {@link fetchJson}. */
export interface FetchJsonOptions {
  /** Default `POST` when a body is given, else `GET`. */
  method?: string;
  /** Sent after `accept: application/json` (and `content-type: application/json` with a body); these win. */
  headers?: Record<string, string>;
  /** Sent as JSON when defined. */
  body?: unknown;
  /** Bound of the whole call, connection to parsed body. */
  timeoutMs: number;
  /** The caller's signal: when it aborts, the call is abandoned and its abort reason is thrown unchanged. */
  signal?: AbortSignal;
  /** `json` (default) parses the answer; `none` reads and discards it (writes where only the status matters). */
  read?: 'json' | 'none';
  /** `true` (default): a non-2xx status is a {@link FetchJsonError} of kind `status`; `false`: it is returned. */
  requireOk?: boolean;
  fetchFn?: FetchFn;
}

/** An answer: its status and, for `read: 'json'`, the parsed body (undefined for 204/205 and non-2xx answers). */
export interface JsonAnswer<T> {
  status: number;
  ok: boolean;
  body: T | undefined;
}

/**
 * Sends one JSON-over-HTTP request and reads the answer within `timeoutMs`. Failures become a
 * {@link FetchJsonError} (timeout, connect, status, invalid-json) whose message carries no secret; an abort by the
 * caller's own signal is rethrown as is, so a cancelled request stops without being reported as an outage.
 */
export async function fetchJson<T = unknown>(url: string, options: FetchJsonOptions): Promise<JsonAnswer<T>> {
  const { timeoutMs, signal, body } = options;
  const fetchFn = options.fetchFn ?? fetch;
  const timeout = AbortSignal.timeout(timeoutMs);
  const headers: Record<string, string> = {
    accept: 'application/json',
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    ...options.headers,
  };
  let response: Response;
  try {
    response = await fetchFn(url, {
      method: options.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (err) {
    throw failure(err, timeoutMs, signal);
  }
  const { status, ok } = response;
  if (!ok && options.requireOk !== false) {
    await response.body?.cancel().catch(() => undefined);
    throw new FetchJsonError('status', `HTTP ${status}`, status);
  }
  try {
    if (options.read === 'none' || !ok || status === 204 || status === 205) {
      await response.arrayBuffer();
      return { status, ok, body: undefined };
    }
    const text = await response.text();
    try {
      return { status, ok, body: JSON.parse(text) as T };
    } catch (err) {
      throw new FetchJsonError('invalid-json', 'invalid JSON answer', status, { cause: err });
    }
  } catch (err) {
    if (err instanceof FetchJsonError) throw err;
    throw failure(err, timeoutMs, signal);
  }
}

function failure(err: unknown, timeoutMs: number, signal: AbortSignal | undefined): unknown {
  if (signal?.aborted) return signal.reason ?? err;
  const e = err as { name?: string; cause?: { code?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') {
    return new FetchJsonError('timeout', `no answer within ${timeoutMs} ms`, undefined, { cause: err });
  }
  const code = e?.cause?.code;
  const reason =
    code === 'ECONNREFUSED'
      ? 'connection refused'
      : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? 'host not found'
        : code
          ? `unreachable (${code})`
          : 'unreachable';
  return new FetchJsonError('connect', reason, undefined, { cause: err });
}

/** Joins a base URL and a path with exactly one slash between them (`http://h/v1/` + `/models`). */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** A URL without its userinfo part and trailing slash, safe to report; `''` when it is not a URL. */
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
