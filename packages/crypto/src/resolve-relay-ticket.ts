import { cleanErrorDescription, validateIssuer, validateProviderError } from './authorization-response';
import { DEFAULT_COMPANION_SCHEME, assertCallbackAllowed, assertCompanionScheme } from './callback-url';
import { decodePayloadSegment } from './payload-decoder';
import type { NonceStore } from './nonce-store';
import { RelayError } from './relay-error';
import { relayKeyList, verifySegment } from './relay-keys';
import type { RelayKeys } from './relay-keys';
import { withCodeAndState, withProviderError } from './redirect-target';
import type { RelayTicketPayload } from './relay-ticket';
import {
  MAX_RELAY_TICKET_LENGTH,
  MAX_RELAY_TICKET_TTL_SECONDS,
  RELAY_CLOCK_SKEW_SECONDS,
  isWellFormedTicket,
  malformed,
  ticketDot,
} from './relay-ticket';

/** Longest authorization code accepted, in characters. */
export const MAX_AUTHORIZATION_CODE_LENGTH = 4096;

/** What every resolution needs: the callback's `state` (the ticket), its `iss`, the caller's nonce store and keys. */
export interface TicketCheckInput {
  relayTicket: string | undefined | null;
  /** The response's `iss` (RFC 9207); forwarded after {@link validateIssuer} when given (ADR 0504). */
  issuer?: string | undefined | null;
  /** Accept an `http` issuer on a loopback host (dev profile only). */
  allowLoopbackHttpIssuer?: boolean;
  consumedNonces: NonceStore;
  keys: RelayKeys;
  /** Current time in milliseconds (default Date.now). */
  now?: () => number;
  /** Deep-link scheme of the companion app (default `careapp`). */
  companionScheme?: string;
}

/** Inputs of the resolution of a successful authorization response: the ticket and the authorization `code`. */
export interface ResolveInput extends TicketCheckInput {
  authorizationCode: string | undefined | null;
}

/** Inputs of the resolution of a provider's error response (RFC 6749 section 4.1.2.1). */
export interface ResolveErrorInput extends TicketCheckInput {
  /** The response's `error` code, forwarded unchanged (validateProviderError). */
  error: string | undefined | null;
  /** The response's `error_description`, forwarded cleaned and capped (cleanErrorDescription). */
  errorDescription?: string | undefined | null;
}

/** The resolution result: exactly these fields (ADR 0500). */
export interface RelayResolution {
  redirect_target: string;
  connection_id: string;
  profile_id: string;
  user_id: string;
  nonce: string;
  stateless: true;
  tokens_stored: false;
}

// Blank: empty or only whitespace. A printable ASCII first character settles it without trimming.
function isBlank(value: string): boolean {
  const first = value.charCodeAt(0);
  return !(first > 0x20 && first < 0x7f) && value.trim().length === 0;
}

function requireParameter(value: unknown, max: number): string {
  // A non-string (for example a repeated query parameter parsed into an array) counts as missing.
  if (typeof value !== 'string' || isBlank(value)) {
    throw new RelayError('RELAY_MISSING_PARAMETER', 'code and state are required');
  }
  if (value.length > max) throw new RelayError('RELAY_PARAMETER_TOO_LONG', 'code or state is too long');
  return value;
}

/**
 * Resolves a relay callback with the six checks, in order (ADR 0502), failing closed with a RelayError:
 * 1 presence (MISSING_PARAMETER, PARAMETER_TOO_LONG) and, when given, the issuer (INVALID_ISSUER); 2 structure and HMAC against current then previous keys
 * (MALFORMED_TICKET, BAD_SIGNATURE; the payload is parsed only after the signature matched); 3 time (EXPIRED when
 * `exp` is before now, TTL_TOO_LONG when `exp - iat` > 120, INVALID_TTL when < 1, ISSUED_IN_FUTURE when `iat` is
 * more than RELAY_CLOCK_SKEW_SECONDS ahead); 4 nonce consumed in the store (NONCE_REPLAYED); 5 callback allowlist
 * (CALLBACK_NOT_ALLOWED); 6 the result. Only step 4 writes, and only to the caller's store.
 * Every failure, including a throw of the store, is a rejection of the returned promise, never a synchronous throw.
 */
export function resolveRelayTicket(input: ResolveInput): Promise<RelayResolution> {
  return resolve(input, false);
}

/**
 * Resolves a provider's error response (RFC 6749 section 4.1.2.1) that carries a relay ticket in `state`, so the
 * app is told instead of waiting (ADR 0504). The same checks as resolveRelayTicket, in the same order, with check 1
 * asking for a valid `error` (INVALID_PROVIDER_ERROR) instead of a code: a ticket that fails any of them is
 * rejected and nothing is forwarded; a valid one has its nonce consumed, so it cannot be spent again with a code.
 * `redirect_target` is the callback with `error`, the cleaned `error_description`, `state` and `iss`.
 */
export function resolveRelayError(input: ResolveErrorInput): Promise<RelayResolution> {
  return resolve(input, true);
}

function resolve(input: ResolveInput | ResolveErrorInput, errorResponse: boolean): Promise<RelayResolution> {
  try {
    const pending = checkTicket(input, errorResponse);
    const consumed = pending.store.consume(pending.payload.nonce, pending.payload.exp);
    // An in-process store answers at once: no await (and no extra promise) on the usual path.
    if (typeof consumed === 'boolean') return Promise.resolve(finish(pending, consumed));
    return Promise.resolve(consumed).then((answer) => finish(pending, answer));
  } catch (err) {
    return Promise.reject(err as Error);
  }
}

/** A ticket that passed checks 1 to 3, waiting for its nonce (check 4). */
interface CheckedTicket {
  store: NonceStore;
  payload: RelayTicketPayload;
  /** The authorization code; empty for an error response. */
  code: string;
  ticket: string;
  companionScheme: string;
  issuer: string | undefined;
  /** The provider's error code, for an error response only. */
  error: string | undefined;
  errorDescription: string | undefined;
}

// Checks 1 to 3.
function checkTicket(input: ResolveInput | ResolveErrorInput, errorResponse: boolean): CheckedTicket {
  const keyList = relayKeyList(input.keys);
  const companionScheme = input.companionScheme ?? DEFAULT_COMPANION_SCHEME;
  assertCompanionScheme(companionScheme);
  const nowMs = (input.now ?? Date.now)();

  // 1. Presence (and the shape of what is forwarded besides the ticket).
  let code = '';
  let error: string | undefined;
  let errorDescription: string | undefined;
  if (errorResponse) {
    error = validateProviderError((input as ResolveErrorInput).error);
    errorDescription = cleanErrorDescription((input as ResolveErrorInput).errorDescription);
  } else {
    code = requireParameter((input as ResolveInput).authorizationCode, MAX_AUTHORIZATION_CODE_LENGTH);
  }
  const ticket = requireParameter(input.relayTicket, MAX_RELAY_TICKET_LENGTH);
  const issuer =
    input.issuer === undefined || input.issuer === null
      ? undefined
      : validateIssuer(input.issuer, { allowLoopbackHttp: input.allowLoopbackHttpIssuer === true });

  // 2. Signature. The HMAC is computed over the segment as received; the full structure check runs only when the
  // signature does not match, to tell a malformed ticket from a bad signature. A match needs no such check: the
  // signature then is the expected lowercase hex, and the decoder accepts only canonical base64url.
  const dot = ticketDot(ticket);
  if (dot < 0) malformed();
  const segment = ticket.slice(0, dot);
  if (!verifySegment(segment, ticket.slice(dot + 1), keyList)) {
    if (!isWellFormedTicket(ticket)) malformed();
    throw new RelayError('RELAY_BAD_SIGNATURE', 'relay ticket signature does not match');
  }
  const payload = decodePayloadSegment(segment);

  // 3. Time.
  if (payload.exp * 1000 < nowMs) throw new RelayError('RELAY_EXPIRED', 'relay ticket has expired');
  const ttl = payload.exp - payload.iat;
  if (ttl > MAX_RELAY_TICKET_TTL_SECONDS)
    throw new RelayError('RELAY_TTL_TOO_LONG', 'relay ticket lifetime is too long');
  if (ttl < 1) throw new RelayError('RELAY_INVALID_TTL', 'relay ticket lifetime is invalid');
  if ((payload.iat - RELAY_CLOCK_SKEW_SECONDS) * 1000 > nowMs) {
    throw new RelayError('RELAY_ISSUED_IN_FUTURE', 'relay ticket is issued in the future');
  }
  return {
    store: input.consumedNonces,
    payload,
    code,
    ticket,
    companionScheme,
    issuer,
    error,
    errorDescription,
  };
}

// Checks 4 (the store's answer) to 6.
function finish(checked: CheckedTicket, firstUse: boolean): RelayResolution {
  // 4. Single use.
  if (firstUse !== true) throw new RelayError('RELAY_NONCE_REPLAYED', 'relay ticket was already used');

  // 5. Allowlist again: a key holder's mistake must not become an open redirect.
  const { payload } = checked;
  assertCallbackAllowed(payload.cb, checked.companionScheme);

  // 6. Result.
  return {
    redirect_target:
      checked.error === undefined
        ? withCodeAndState(payload.cb, checked.code, checked.ticket, checked.issuer)
        : withProviderError(
            payload.cb,
            checked.error,
            checked.errorDescription,
            checked.ticket,
            checked.issuer,
          ),
    connection_id: payload.cid,
    profile_id: payload.pid,
    user_id: payload.uid,
    nonce: payload.nonce,
    stateless: true,
    tokens_stored: false,
  };
}
