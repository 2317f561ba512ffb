import { canonicalJson } from './canonical-json';
import { RelayError } from './relay-error';

/** Protocol version carried in every ticket as `v`. */
export const RELAY_PROTOCOL_VERSION = 1;
/** Longest ticket lifetime (`exp - iat`), in seconds; the shortest is 1. */
export const MAX_RELAY_TICKET_TTL_SECONDS = 120;
/** Tolerated clock difference between replicas, in seconds: for `iat` in the future and nonce retention. */
export const RELAY_CLOCK_SKEW_SECONDS = 5;
/** Longest identifier (`uid`, `pid`, `cid`) accepted, in UTF-16 code units. */
export const MAX_RELAY_ID_LENGTH = 256;
/** Longest ticket string accepted or produced, in characters. */
export const MAX_RELAY_TICKET_LENGTH = 8192;

/** The signed payload of a relay ticket (spec: Relay ticket). */
export interface RelayTicketPayload {
  v: number;
  uid: string;
  pid: string;
  cid: string;
  cb: string;
  nonce: string;
  iat: number;
  exp: number;
}

const PAYLOAD_KEYS = ['cb', 'cid', 'exp', 'iat', 'nonce', 'pid', 'uid', 'v'];
const NONCE_PATTERN = /^[0-9a-f]{32}$/;
const BASE64URL_PATTERN = /^[A-Za-z0-9_-]+$/;
// eslint-disable-next-line no-control-regex -- identifiers must not carry control characters into logs or URLs
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// fatal: invalid UTF-8 throws instead of becoming U+FFFD; ignoreBOM: a BOM stays and then fails the canonical check.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** True for a non-blank identifier without control characters, at most MAX_RELAY_ID_LENGTH long. */
export function isRelayId(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length <= MAX_RELAY_ID_LENGTH &&
    value.trim().length > 0 &&
    !CONTROL.test(value)
  );
}

/** base64url (no padding) of the RFC 8785 canonical JSON of the payload: the first ticket segment. */
export function encodePayloadSegment(payload: RelayTicketPayload): string {
  return Buffer.from(canonicalJson(payload), 'utf8').toString('base64url');
}

function malformed(): never {
  throw new RelayError('RELAY_MALFORMED_TICKET', 'relay ticket is malformed');
}

/** Splits a ticket into its two segments; anything but `<base64url>.<64 lowercase hex>` is malformed. */
export function splitTicket(ticket: string): { segment: string; signature: string } {
  const dot = ticket.indexOf('.');
  if (dot <= 0 || ticket.indexOf('.', dot + 1) !== -1) malformed();
  const segment = ticket.slice(0, dot);
  const signature = ticket.slice(dot + 1);
  if (!BASE64URL_PATTERN.test(segment) || !/^[0-9a-f]{64}$/.test(signature)) malformed();
  return { segment, signature };
}

/**
 * Decodes and strictly validates a payload segment (run only after the signature matched): canonical
 * base64url without padding, valid UTF-8, canonical JSON, an object with exactly the eight fields and their types.
 */
export function decodePayloadSegment(segment: string): RelayTicketPayload {
  const bytes = Buffer.from(segment, 'base64url');
  // Node decodes leniently (ignores stray bits and characters); re-encoding catches every non-canonical form.
  if (bytes.toString('base64url') !== segment) malformed();
  let text: string;
  let value: unknown;
  try {
    text = UTF8.decode(bytes);
    value = JSON.parse(text);
  } catch {
    return malformed();
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) malformed();
  if (canonicalJson(value) !== text) malformed();
  const p = value as Record<string, unknown>;
  const keys = Object.keys(p).sort();
  if (keys.length !== PAYLOAD_KEYS.length || keys.some((k, i) => k !== PAYLOAD_KEYS[i])) malformed();
  if (p.v !== RELAY_PROTOCOL_VERSION) malformed();
  if (!isRelayId(p.uid) || !isRelayId(p.pid) || !isRelayId(p.cid)) malformed();
  if (typeof p.cb !== 'string' || typeof p.nonce !== 'string' || !NONCE_PATTERN.test(p.nonce)) malformed();
  if (!Number.isSafeInteger(p.iat) || !Number.isSafeInteger(p.exp) || (p.iat as number) < 0) malformed();
  return p as unknown as RelayTicketPayload;
}
