/**
 * Stable error codes of the relay. Callers map them to HTTP answers; the codes never change meaning.
 * Codes in {@link RELAY_SERVER_ERROR_CODES} are faults of the server (configuration, storage), not of the request.
 */
export type RelayErrorCode =
  | 'RELAY_MISSING_PARAMETER'
  | 'RELAY_PARAMETER_TOO_LONG'
  | 'RELAY_MALFORMED_TICKET'
  | 'RELAY_BAD_SIGNATURE'
  | 'RELAY_EXPIRED'
  | 'RELAY_TTL_TOO_LONG'
  | 'RELAY_ISSUED_IN_FUTURE'
  | 'RELAY_NONCE_REPLAYED'
  | 'RELAY_CALLBACK_NOT_ALLOWED'
  | 'RELAY_INVALID_TTL'
  | 'RELAY_INVALID_INPUT'
  | 'RELAY_INVALID_ISSUER'
  | 'RELAY_INVALID_PROVIDER_ERROR'
  | 'RELAY_INVALID_KEY'
  | 'RELAY_INVALID_COMPANION_SCHEME'
  | 'RELAY_NONCE_STORE_FULL'
  | 'RELAY_NONCE_STORE_UNAVAILABLE';

/** Codes that signal a server-side fault (misconfiguration or an unavailable/full nonce store): answer 5xx, log. */
export const RELAY_SERVER_ERROR_CODES: ReadonlySet<RelayErrorCode> = new Set<RelayErrorCode>([
  'RELAY_INVALID_KEY',
  'RELAY_INVALID_COMPANION_SCHEME',
  'RELAY_NONCE_STORE_FULL',
  'RELAY_NONCE_STORE_UNAVAILABLE',
]);

/**
 * A rejected issuance or resolution. Messages are generic on purpose: they never echo the ticket,
 * the authorization code, the callback URL or a key, so they are safe to log and to return.
 */
export class RelayError extends Error {
  /** Stable machine-readable code. */
  readonly code: RelayErrorCode;

  constructor(code: RelayErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RelayError';
    this.code = code;
  }
}
