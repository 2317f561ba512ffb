import { EmbeddingUnavailableError } from './embedding-provider';

/**
 * POSTs JSON to a hosted embedding provider and returns the parsed answer. Every failure (refused
 * connection, timeout, non-2xx status, non-JSON body) becomes an {@link EmbeddingUnavailableError}, so
 * callers answer 503. The detail names the status but never echoes the provider's body or our key.
 */
export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    throw new EmbeddingUnavailableError(
      timedOut ? `no answer within ${timeoutMs} ms` : 'the provider cannot be reached',
      err,
    );
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new EmbeddingUnavailableError(`the provider answered HTTP ${response.status}`);
  }
  try {
    return await response.json();
  } catch (err) {
    throw new EmbeddingUnavailableError('the provider answered with a body that is not JSON', err);
  }
}

/** Joins a base URL and a path without doubling or losing the slash. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}
