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

const BASE64URL_PATTERN = /^[A-Za-z0-9_-]+$/;
// eslint-disable-next-line no-control-regex -- identifiers must not carry control characters into logs or URLs
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const NON_BLANK = /\S/;

/** True for a non-blank identifier without control characters, at most MAX_RELAY_ID_LENGTH long. */
export function isRelayId(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length <= MAX_RELAY_ID_LENGTH &&
    NON_BLANK.test(value) &&
    !CONTROL.test(value)
  );
}

/** base64url (no padding) of the RFC 8785 canonical JSON of the payload: the first ticket segment. */
export function encodePayloadSegment(payload: RelayTicketPayload): string {
  return Buffer.from(canonicalJson(payload), 'utf8').toString('base64url');
}

/** Throws RELAY_MALFORMED_TICKET. */
export function malformed(): never {
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
