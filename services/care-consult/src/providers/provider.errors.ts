import { AppError } from '@care/service-kit';

/**
 * A model call failed (unreachable server, vendor error, broken stream). The message is safe to show: it never
 * carries the vendor's raw body, which can echo prompts or keys.
 */
export class ProviderError extends AppError {
  /** Provider id that failed. */
  readonly provider: string;
  /** HTTP status the vendor answered, when there was one. */
  readonly upstreamStatus: number | undefined;

  constructor(provider: string, message: string, options: { cause?: unknown; status?: number } = {}) {
    super('PROVIDER_ERROR', message, 502, { cause: options.cause });
    this.provider = provider;
    this.upstreamStatus = options.status;
  }
}

/** True when `err` is the rejection of an aborted signal (ours or a vendor SDK's wrapper of it). */
export function isAbortError(err: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted) return true;
  if (!err || typeof err !== 'object') return false;
  const name = (err as { name?: string }).name;
  return name === 'AbortError' || name === 'APIUserAbortError';
}

/** The error a provider throws when its signal aborted, whatever the SDK did (some end the stream quietly). */
export function abortError(signal: AbortSignal): Error {
  const err = new Error('The model call was aborted', { cause: signal.reason });
  err.name = 'AbortError';
  return err;
}
