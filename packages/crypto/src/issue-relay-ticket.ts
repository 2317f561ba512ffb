import { randomBytes as cryptoRandomBytes } from 'node:crypto';
import { DEFAULT_COMPANION_SCHEME, validateCallbackUrl } from './callback-url';
import { RelayError } from './relay-error';
import { relayKeyList, signSegment } from './relay-keys';
import type { RelayKeys } from './relay-keys';
import {
  MAX_RELAY_TICKET_LENGTH,
  MAX_RELAY_TICKET_TTL_SECONDS,
  RELAY_PROTOCOL_VERSION,
  encodePayloadSegment,
  isRelayId,
} from './relay-ticket';
import type { RelayTicketPayload } from './relay-ticket';

/** What a ticket binds: user, profile, connection, callback URL, and its lifetime in whole seconds (1..120). */
export interface IssueInput {
  uid: string;
  pid: string;
  cid: string;
  cb: string;
  ttlSeconds: number;
}

/** Injection points for tests and configuration. */
export interface IssueOptions {
  /** Current time in milliseconds (default Date.now). */
  now?: () => number;
  /** Deep-link scheme of the companion app (default `careapp`). */
  companionScheme?: string;
  /** Source of the 16 nonce bytes (default crypto.randomBytes, a CSPRNG). */
  randomBytes?: (n: number) => Buffer;
}

/** An issued ticket with its decoded payload and expiry instant. */
export interface IssuedRelayTicket {
  ticket: string;
  payload: RelayTicketPayload;
  expiresAt: Date;
}

const NONCE_BYTES = 16;

/**
 * Issues a signed relay ticket under the current key. Throws RelayError: RELAY_INVALID_INPUT (blank, too long or
 * control-character ids), RELAY_INVALID_TTL (not an integer in 1..120), RELAY_CALLBACK_NOT_ALLOWED,
 * RELAY_INVALID_KEY, RELAY_INVALID_COMPANION_SCHEME.
 */
export function issueRelayTicket(
  input: IssueInput,
  keys: RelayKeys,
  opts: IssueOptions = {},
): IssuedRelayTicket {
  const [signingKey] = relayKeyList(keys);
  if (input === null || typeof input !== 'object') {
    throw new RelayError('RELAY_INVALID_INPUT', 'issuance input is missing');
  }
  const { uid, pid, cid, cb, ttlSeconds } = input;
  if (!isRelayId(uid) || !isRelayId(pid) || !isRelayId(cid)) {
    throw new RelayError('RELAY_INVALID_INPUT', 'uid, pid and cid must be non-blank identifiers');
  }
  if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1 || ttlSeconds > MAX_RELAY_TICKET_TTL_SECONDS) {
    throw new RelayError(
      'RELAY_INVALID_TTL',
      `ttl_seconds must be an integer from 1 to ${MAX_RELAY_TICKET_TTL_SECONDS}`,
    );
  }
  validateCallbackUrl(cb, opts.companionScheme ?? DEFAULT_COMPANION_SCHEME);

  const nonceBytes = (opts.randomBytes ?? cryptoRandomBytes)(NONCE_BYTES);
  if (!Buffer.isBuffer(nonceBytes) || nonceBytes.length !== NONCE_BYTES) {
    throw new RelayError('RELAY_INVALID_INPUT', 'the random source must return 16 bytes');
  }
  const iat = Math.floor((opts.now ?? Date.now)() / 1000);
  if (!Number.isSafeInteger(iat) || iat < 0)
    throw new RelayError('RELAY_INVALID_INPUT', 'the clock is unusable');
  const payload: RelayTicketPayload = {
    v: RELAY_PROTOCOL_VERSION,
    uid,
    pid,
    cid,
    cb,
    nonce: nonceBytes.toString('hex'),
    iat,
    exp: iat + ttlSeconds,
  };
  const segment = encodePayloadSegment(payload);
  const ticket = `${segment}.${signSegment(segment, signingKey)}`;
  if (ticket.length > MAX_RELAY_TICKET_LENGTH) {
    throw new RelayError('RELAY_INVALID_INPUT', 'the ticket would exceed the maximum length');
  }
  return { ticket, payload, expiresAt: new Date(payload.exp * 1000) };
}
