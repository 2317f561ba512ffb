import { isUtf8 } from 'node:buffer';
import {
  BASE64URL_PATTERN,
  MAX_RELAY_TICKET_LENGTH,
  RELAY_PROTOCOL_VERSION,
  canonicalPayloadJson,
  isControlFreeRelayId,
  isLowerHexRun,
  isRelayId,
  malformed,
} from './relay-ticket';
import type { RelayTicketPayload } from './relay-ticket';

const NONCE_HEX_LENGTH = 32;
const BASE64URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
// Large enough for the longest accepted ticket (base64url decodes to 3/4 of its length).
const scratch = Buffer.alloc(MAX_RELAY_TICKET_LENGTH);
// Canonical unpadded base64url: only the alphabet, no length that leaves a lone 6-bit group, and no stray bits in the
// last character (the decoder ignores them, so two spellings would decode to the same bytes). Measured cheaper
// overall than decoding and re-encoding, which allocates a string as long as the segment.
function isCanonicalBase64url(segment: string): boolean {
  if (!BASE64URL_PATTERN.test(segment)) return false;
  const rest = segment.length % 4;
  if (rest === 1) return false;
  if (rest === 0) return true;
  const last = BASE64URL_ALPHABET.indexOf(segment[segment.length - 1]);
  return (last & (rest === 2 ? 0x0f : 0x03)) === 0;
}

// A JSON string body with nothing JSON escapes (quote, backslash, C0 controls) and no C1 control or DEL.
const PLAIN = '[^"\\\\\\u0000-\\u001f\\u007f-\\u009f]*';
// A non-negative integer without sign or leading zero, at most 16 digits (the range is checked after reading it).
const INTEGER = '(?:0|[1-9][0-9]{0,15})';
// The whole fast-path text in one native pass; fields are then cut at the quotes, which no body holds.
const PLAIN_CANONICAL_PAYLOAD = new RegExp(
  `^\\{"cb":"${PLAIN}","cid":"${PLAIN}","exp":${INTEGER},"iat":${INTEGER},` +
    `"nonce":"[0-9a-f]{32}","pid":"${PLAIN}","uid":"${PLAIN}","v":${INTEGER}\\}$`,
);

// Value of the digits from `start` to `end` (already matched as an integer of at most 16 digits). Summed by hand
// (Number(slice) costs several times more); adding each digit after the multiplication keeps every partial sum at
// most the final value, so sums are exact up to 2^53 and the caller checks the range.
function digitsValue(text: string, start: number, end: number): number {
  let value = 0;
  for (let i = start; i < end; i++) value = value * 10 + (text.charCodeAt(i) - 0x30);
  return value;
}

/**
 * Fast path, for text decoded from valid UTF-8 (so without lone surrogates): reads text that is literally
 * `{"cb":"…","cid":"…","exp":N,"iat":N,"nonce":"…","pid":"…","uid":"…","v":N}` (RFC 8785 key order), with no
 * character that JSON escapes anywhere (so no string holds an escape), no C1 control or DEL either (so no field holds
 * a control character), a nonce of 32 lowercase hex characters and integers without sign or leading zero.
 * Such text is its own canonical form, so accepting it is exactly as strict as JSON.parse plus a canonical
 * comparison. Anything else returns undefined and takes that slow path. One regular expression checks the shape
 * (measured about twice as fast as walking the text key by key); the fields are then cut between the quotes.
 */
export function scanCanonicalPayload(text: string): RelayTicketPayload | undefined {
  if (!PLAIN_CANONICAL_PAYLOAD.test(text)) return undefined;
  // Each offset skips a key literal: `","cid":"` is 9 characters, `","exp":` 8, `,"iat":` 7, `,"nonce":"` 10 ...
  const cbEnd = text.indexOf('"', 7);
  const cidStart = cbEnd + 9;
  const cidEnd = text.indexOf('"', cidStart);
  const expStart = cidEnd + 8;
  const expEnd = text.indexOf(',', expStart);
  const iatStart = expEnd + 7;
  const iatEnd = text.indexOf(',', iatStart);
  const nonceStart = iatEnd + 10;
  const nonceEnd = nonceStart + NONCE_HEX_LENGTH;
  const pidStart = nonceEnd + 9;
  const pidEnd = text.indexOf('"', pidStart);
  const uidStart = pidEnd + 9;
  const uidEnd = text.indexOf('"', uidStart);
  const exp = digitsValue(text, expStart, expEnd);
  const iat = digitsValue(text, iatStart, iatEnd);
  const v = digitsValue(text, uidEnd + 6, text.length - 1);
  if (!Number.isSafeInteger(exp) || !Number.isSafeInteger(iat) || !Number.isSafeInteger(v)) return undefined;
  return {
    v,
    uid: text.slice(uidStart, uidEnd),
    pid: text.slice(pidStart, pidEnd),
    cid: text.slice(cidStart, cidEnd),
    cb: text.slice(7, cbEnd),
    nonce: text.slice(nonceStart, nonceEnd),
    iat,
    exp,
  };
}

// Slow path for anything the scanner declines (escaped characters, or not canonical at all).
function parseCanonicalPayload(text: string): RelayTicketPayload {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return malformed();
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) malformed();
  const p = value as Record<string, unknown>;
  if (typeof p.cb !== 'string' || typeof p.cid !== 'string' || typeof p.pid !== 'string') malformed();
  if (typeof p.uid !== 'string' || typeof p.nonce !== 'string') malformed();
  if (!Number.isSafeInteger(p.iat) || !Number.isSafeInteger(p.exp) || !Number.isSafeInteger(p.v)) malformed();
  const payload = p as unknown as RelayTicketPayload;
  // Rejects every other spelling (BOM, whitespace, key order, duplicate or extra keys, number forms, escapes).
  if (canonicalPayloadJson(payload) !== text) malformed();
  return payload;
}

/**
 * Decodes and strictly validates a payload segment (run only after the signature matched): canonical unpadded
 * base64url, valid UTF-8, text equal to its RFC 8785 canonical JSON, exactly the eight fields with v = 1, non-blank
 * identifiers without control characters, a 32-lowercase-hex nonce and non-negative integer times.
 */
export function decodePayloadSegment(segment: string): RelayTicketPayload {
  // Node's decoder skips foreign characters, takes `+/=` and ignores stray low bits: check the spelling first.
  if (segment.length > MAX_RELAY_TICKET_LENGTH || !isCanonicalBase64url(segment)) malformed();
  // Decoded into a reused buffer (no allocation); nothing awaits before it is read, so no other call can interleave.
  const length = scratch.write(segment, 'base64url');
  const text = scratch.toString('utf8', 0, length);
  // Decoding turns every invalid UTF-8 sequence into U+FFFD, so only a text holding one needs the exact check.
  if (text.includes('\uFFFD') && !isUtf8(scratch.subarray(0, length))) malformed();
  const scanned = scanCanonicalPayload(text);
  if (scanned !== undefined) {
    // The fast path has already matched the nonce form and excluded control characters.
    const p = scanned;
    const idsOk = isControlFreeRelayId(p.uid) && isControlFreeRelayId(p.pid) && isControlFreeRelayId(p.cid);
    if (p.v !== RELAY_PROTOCOL_VERSION || !idsOk || p.iat < 0 || p.exp < 0) malformed();
    return p;
  }
  const p = parseCanonicalPayload(text);
  const idsOk = isRelayId(p.uid) && isRelayId(p.pid) && isRelayId(p.cid);
  if (p.v !== RELAY_PROTOCOL_VERSION || !idsOk || !isLowerHexRun(p.nonce, 0, NONCE_HEX_LENGTH)) malformed();
  if (p.iat < 0 || p.exp < 0) malformed();
  return p;
}
