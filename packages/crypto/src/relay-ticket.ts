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

/** A non-empty string of base64url characters (RFC 4648 section 5), without padding. */
export const BASE64URL_PATTERN = /^[A-Za-z0-9_-]+$/;
// eslint-disable-next-line no-control-regex -- identifiers must not carry control characters into logs or URLs
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const NON_BLANK = /\S/;

// True when the string has a character that is not whitespace; a printable ASCII first character settles it at once.
function hasNonBlank(value: string): boolean {
  const first = value.charCodeAt(0);
  return (first > 0x20 && first < 0x7f) || NON_BLANK.test(value);
}

/** True for a non-blank identifier without control characters, at most MAX_RELAY_ID_LENGTH long. */
export function isRelayId(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length <= MAX_RELAY_ID_LENGTH &&
    hasNonBlank(value) &&
    !CONTROL.test(value)
  );
}

/** isRelayId for a string already known to hold no control character. */
export function isControlFreeRelayId(value: string): boolean {
  return value.length <= MAX_RELAY_ID_LENGTH && hasNonBlank(value);
}

/** base64url (no padding) of the RFC 8785 canonical JSON of the payload: the first ticket segment. */
export function encodePayloadSegment(payload: RelayTicketPayload): string {
  return Buffer.from(canonicalJson(payload), 'utf8').toString('base64url');
}

/** Throws RELAY_MALFORMED_TICKET. */
export function malformed(): never {
  throw new RelayError('RELAY_MALFORMED_TICKET', 'relay ticket is malformed');
}

// 1 at the character codes of lowercase hex digits. A table lookup, not range comparisons: on random digits the
// comparisons branch unpredictably (digit or letter) and were measured twice as slow.
const LOWER_HEX = new Uint8Array(128);
for (const c of '0123456789abcdef') LOWER_HEX[c.charCodeAt(0)] = 1;

/** True when `text` from `start` to its end is exactly `count` lowercase hex characters. */
export function isLowerHexRun(text: string, start: number, count: number): boolean {
  if (text.length - start !== count) return false;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128 || LOWER_HEX[c] !== 1) return false;
  }
  return true;
}

/** Length of the signature segment: lowercase hex of the 32-byte HMAC-SHA256. */
export const SIGNATURE_HEX_LENGTH = 64;

/**
 * Where the dot of a ticket must be: the signature has a fixed length, so the dot is the 65th character from the
 * end. Returns its index, or -1 when that character is not a dot or the payload segment would be empty.
 */
export function ticketDot(ticket: string): number {
  const dot = ticket.length - SIGNATURE_HEX_LENGTH - 1;
  return dot > 0 && ticket.charCodeAt(dot) === 0x2e ? dot : -1;
}

/**
 * True only for `<base64url>.<64 lowercase hex>` (so exactly one dot: the base64url alphabet has none). Decides
 * between RELAY_MALFORMED_TICKET and RELAY_BAD_SIGNATURE for a ticket whose signature did not match.
 */
export function isWellFormedTicket(ticket: string): boolean {
  const dot = ticketDot(ticket);
  return (
    dot > 0 &&
    BASE64URL_PATTERN.test(ticket.slice(0, dot)) &&
    isLowerHexRun(ticket, dot + 1, SIGNATURE_HEX_LENGTH)
  );
}

/**
 * RFC 8785 canonical JSON of a payload whose fields are already type-checked (strings and safe integers), written
 * out by hand for speed on the resolution path. Keys are in RFC 8785 order; JSON.stringify of a string and String of
 * a safe integer are exactly the RFC 8785 forms. Tests check it against canonicalJson for arbitrary payloads.
 */
export function canonicalPayloadJson(p: RelayTicketPayload): string {
  return (
    `{"cb":${JSON.stringify(p.cb)},"cid":${JSON.stringify(p.cid)},"exp":${String(p.exp)},"iat":${String(p.iat)},` +
    `"nonce":${JSON.stringify(p.nonce)},"pid":${JSON.stringify(p.pid)},"uid":${JSON.stringify(p.uid)},"v":${String(p.v)}}`
  );
}
