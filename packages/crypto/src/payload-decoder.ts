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
// A backslash, a C0 control (both only ever escaped in JSON) or a C1 control or DEL (never valid in an identifier)
// anywhere: take the slow path, which decides exactly. Past this test no field holds a control character.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const FAST_PATH_BLOCKER = /[\\\u0000-\u001f\u007f-\u009f]/;

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

// Position after `"…"` at `pos` (a string holding no escape, the text has none); -1 when there is none.
function stringEnd(text: string, pos: number): number {
  if (text.charCodeAt(pos) !== 0x22) return -1;
  const end = text.indexOf('"', pos + 1);
  return end < 0 ? -1 : end + 1;
}

// True when `literal` is at `pos`. Compared code by code: a slice would allocate a string per call, and garbage is
// what the resolution path spends most on after the HMAC (scavenges).
function literalAt(text: string, pos: number, literal: string): boolean {
  if (pos < 0) return false;
  for (let i = 0; i < literal.length; i++) if (text.charCodeAt(pos + i) !== literal.charCodeAt(i)) return false;
  return true;
}

// Value of the non-negative integer (no sign, no leading zero, at most 16 digits) at `pos`, its end in `end`.
// Digits are summed by hand (Number(slice) costs several times more); adding each digit after the multiplication
// keeps every partial sum at most the final value, so sums are exact up to 2^53 and the caller checks the range.
const cursor = { end: -1 };
function integerAt(text: string, pos: number): number {
  let value = 0;
  let end = pos;
  for (let c = text.charCodeAt(end); c >= 0x30 && c <= 0x39; c = text.charCodeAt(++end))
    value = value * 10 + (c - 0x30);
  const length = end - pos;
  cursor.end = length === 0 || length > 16 || (length > 1 && text.charCodeAt(pos) === 0x30) ? -1 : end;
  return value;
}

/**
 * Fast path, for text decoded from valid UTF-8 (so without lone surrogates): reads text that is literally
 * `{"cb":"…","cid":"…","exp":N,"iat":N,"nonce":"…","pid":"…","uid":"…","v":N}` (RFC 8785 key order), with no
 * character that JSON escapes anywhere (so no string holds an escape), no C1 control or DEL either (so no field holds
 * a control character) and integers without sign or leading zero.
 * Such text is its own canonical form, so accepting it is exactly as strict as JSON.parse plus a canonical
 * comparison. Anything else returns undefined and takes that slow path.
 */
export function scanCanonicalPayload(text: string): RelayTicketPayload | undefined {
  if (FAST_PATH_BLOCKER.test(text) || !literalAt(text, 0, '{"cb":')) return undefined;
  const cbEnd = stringEnd(text, 6);
  if (!literalAt(text, cbEnd, ',"cid":')) return undefined;
  const cidEnd = stringEnd(text, cbEnd + 7);
  if (!literalAt(text, cidEnd, ',"exp":')) return undefined;
  const exp = integerAt(text, cidEnd + 7);
  const expEnd = cursor.end;
  if (!literalAt(text, expEnd, ',"iat":')) return undefined;
  const iat = integerAt(text, expEnd + 7);
  const iatEnd = cursor.end;
  if (!literalAt(text, iatEnd, ',"nonce":')) return undefined;
  const nonceEnd = stringEnd(text, iatEnd + 9);
  if (!literalAt(text, nonceEnd, ',"pid":')) return undefined;
  const pidEnd = stringEnd(text, nonceEnd + 7);
  if (!literalAt(text, pidEnd, ',"uid":')) return undefined;
  const uidEnd = stringEnd(text, pidEnd + 7);
  if (!literalAt(text, uidEnd, ',"v":')) return undefined;
  const v = integerAt(text, uidEnd + 5);
  const vEnd = cursor.end;
  if (vEnd < 0 || vEnd !== text.length - 1 || text.charCodeAt(vEnd) !== 0x7d) return undefined;
  if (!Number.isSafeInteger(exp) || !Number.isSafeInteger(iat) || !Number.isSafeInteger(v)) return undefined;
  return {
    v,
    uid: text.slice(pidEnd + 8, uidEnd - 1),
    pid: text.slice(nonceEnd + 8, pidEnd - 1),
    cid: text.slice(cbEnd + 8, cidEnd - 1),
    cb: text.slice(7, cbEnd - 1),
    nonce: text.slice(iatEnd + 10, nonceEnd - 1),
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
  const p = scanned ?? parseCanonicalPayload(text);
  if (p.v !== RELAY_PROTOCOL_VERSION || !isLowerHexRun(p.nonce, 0, NONCE_HEX_LENGTH) || p.iat < 0 || p.exp < 0)
    malformed();
  const idsOk =
    scanned !== undefined
      ? isControlFreeRelayId(p.uid) && isControlFreeRelayId(p.pid) && isControlFreeRelayId(p.cid)
      : isRelayId(p.uid) && isRelayId(p.pid) && isRelayId(p.cid);
  if (!idsOk) malformed();
  return p;
}
