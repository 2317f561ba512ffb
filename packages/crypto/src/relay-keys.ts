import { createHmac, timingSafeEqual } from 'node:crypto';
import { RelayError } from './relay-error';
import { SIGNATURE_HEX_LENGTH } from './relay-ticket';

/**
 * Signing keys. `current` signs new tickets; `previous` keys still verify during a rotation.
 * String keys are used as their UTF-8 bytes and must have at least 32 characters; Buffer keys at least 32 bytes.
 */
export interface RelayKeys {
  current: string | Buffer;
  previous?: Array<string | Buffer>;
}

/** Minimum key length: 32 characters for a string key, 32 bytes for a Buffer key (256 bits, the HMAC-SHA256 output size). */
export const MIN_RELAY_KEY_LENGTH = 32;

function codePointCount(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is a single character.
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

function checkKey(key: unknown): string | Buffer {
  // Characters, not UTF-16 units, so a key of 16 emoji does not pass (a character is at most two units).
  if (
    typeof key === 'string' &&
    (key.length >= 2 * MIN_RELAY_KEY_LENGTH || codePointCount(key) >= MIN_RELAY_KEY_LENGTH)
  ) {
    return key;
  }
  if (Buffer.isBuffer(key) && key.length >= MIN_RELAY_KEY_LENGTH) return key;
  throw new RelayError(
    'RELAY_INVALID_KEY',
    `relay keys must have at least ${MIN_RELAY_KEY_LENGTH} characters`,
  );
}

// Validated keys by key-set object, as HMAC-ready bytes. A hit also requires the very same key values in the same
// places, so a key set changed in place (a rotated or dropped key) is validated again and never served stale.
const validated = new WeakMap<RelayKeys, { sources: Array<string | Buffer>; bytes: Buffer[] }>();

function sameKeys(
  keys: RelayKeys,
  previous: Array<string | Buffer>,
  sources: Array<string | Buffer>,
): boolean {
  if (sources.length !== previous.length + 1 || sources[0] !== keys.current) return false;
  for (let i = 0; i < previous.length; i++) if (sources[i + 1] !== previous[i]) return false;
  return true;
}

/**
 * Validates the key set and returns the keys as bytes (strings as UTF-8) in verification order: current first,
 * then previous. A Buffer key is used as it is, not copied.
 */
export function relayKeyList(keys: RelayKeys): Buffer[] {
  if (keys === null || typeof keys !== 'object') {
    throw new RelayError('RELAY_INVALID_KEY', 'relay keys are missing');
  }
  const previous = keys.previous ?? [];
  if (!Array.isArray(previous)) {
    throw new RelayError('RELAY_INVALID_KEY', 'previous relay keys must be a list');
  }
  const cached = validated.get(keys);
  if (cached !== undefined && sameKeys(keys, previous, cached.sources)) return cached.bytes;
  const sources = [checkKey(keys.current), ...previous.map(checkKey)];
  const bytes = sources.map((key) => (typeof key === 'string' ? Buffer.from(key, 'utf8') : key));
  validated.set(keys, { sources, bytes });
  return bytes;
}

/** Lowercase hex HMAC-SHA256 of the base64url payload segment under one key. */
export function signSegment(segment: string, key: Buffer): string {
  return createHmac('sha256', key).update(segment, 'utf8').digest('hex');
}

// The expected and the given signature as 64 bytes each, reused: verification is synchronous, so calls cannot
// interleave. Comparing hex forms is comparing digests (hex encoding is one-to-one), and a hex digest is measured
// cheaper here than a raw one: `digest()` allocates a Buffer per call, `digest('hex')` only a short string.
const expectedHex = Buffer.alloc(SIGNATURE_HEX_LENGTH);
const givenHex = Buffer.alloc(SIGNATURE_HEX_LENGTH);

/**
 * Constant-time check of a signature against every key, current first: each expected HMAC, as lowercase hex, is
 * compared with the given one by timingSafeEqual after a length check (timingSafeEqual throws on different
 * lengths). The given string need not be checked beforehand: it is written as UTF-8, and only when that takes
 * exactly 64 bytes for its 64 characters (all ASCII; a wider character takes two bytes or more and is never
 * written in part) are the bytes compared; so a match means the string is exactly the expected lowercase hex.
 */
export function verifySegment(segment: string, signatureHex: string, keys: Buffer[]): boolean {
  if (signatureHex.length !== SIGNATURE_HEX_LENGTH) return false;
  if (givenHex.write(signatureHex, 0, 'utf8') !== SIGNATURE_HEX_LENGTH) return false;
  for (const key of keys) {
    const expected = createHmac('sha256', key).update(segment, 'utf8').digest('hex');
    if (expected.length !== SIGNATURE_HEX_LENGTH) continue;
    expectedHex.write(expected, 0, 'latin1');
    if (timingSafeEqual(expectedHex, givenHex)) return true;
  }
  return false;
}
