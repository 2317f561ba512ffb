import { RELAY_SERVER_ERROR_CODES, RelayError } from '@care/crypto';
import { AppError } from '@care/service-kit';

// Issuance inputs each RelayError code points at, for the problem's `errors` list.
const ISSUE_POINTERS: Partial<Record<string, string>> = {
  RELAY_CALLBACK_NOT_ALLOWED: '/callback_url',
  RELAY_INVALID_TTL: '/ttl_seconds',
  RELAY_INVALID_INPUT: '/',
};

/** How many seconds a client should wait after the in-process nonce store was full. */
const NONCE_STORE_FULL_RETRY_AFTER_SECONDS = 5;

/**
 * Turns a relay failure into the problem the client sees. A RelayError of the request keeps its stable code
 * with status 400; a server-side one (nonce store unavailable or full, unusable key or scheme) is 503 with the
 * same code and no cause attached, so nothing the store client put in its error (key names hold the nonce) is
 * logged by the problem middleware. Anything that is not a RelayError is passed through unchanged.
 */
export function toRelayProblem(err: unknown, during: 'issue' | 'resolve'): unknown {
  if (!(err instanceof RelayError)) return err;
  if (RELAY_SERVER_ERROR_CODES.has(err.code)) {
    const headers: Record<string, string> =
      err.code === 'RELAY_NONCE_STORE_FULL'
        ? { 'Retry-After': String(NONCE_STORE_FULL_RETRY_AFTER_SECONDS) }
        : {};
    return new AppError(err.code, err.message, 503, { headers });
  }
  const pointer = during === 'issue' ? ISSUE_POINTERS[err.code] : undefined;
  return new AppError(
    err.code,
    err.message,
    400,
    pointer ? { errors: [{ pointer, detail: err.message }] } : {},
  );
}

/** True for the codes that can only be reached after the ticket's signature was verified (its payload is authentic). */
export function isSignedTicketRejection(code: string): boolean {
  return SIGNED_CODES.has(code);
}

const SIGNED_CODES = new Set([
  'RELAY_EXPIRED',
  'RELAY_TTL_TOO_LONG',
  'RELAY_INVALID_TTL',
  'RELAY_ISSUED_IN_FUTURE',
  'RELAY_NONCE_REPLAYED',
  'RELAY_CALLBACK_NOT_ALLOWED',
  'RELAY_NONCE_STORE_FULL',
  'RELAY_NONCE_STORE_UNAVAILABLE',
]);
