import { createHash, createHmac, hash, timingSafeEqual } from 'node:crypto';
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

/**
 * One key, ready for HMAC-SHA256 (RFC 2104): HMAC(K, m) = H((K' xor opad) || H((K' xor ipad) || m)), where K' is the
 * key padded with zeros to the 64-byte block (a longer key is hashed first). Node's one-shot `crypto.hash` computes
 * each of the two SHA-256 calls without creating a Hash or Hmac object, which measured about twice as fast as
 * `createHmac` for a ticket-sized message (ADR 0503). `crypto.hash` takes a string as its UTF-8 bytes, so the inner
 * call hashes `innerPrefix + message` as one string: exact when the padded key is ASCII (every byte below 0x80,
 * the case for any ASCII key string up to 64 bytes). Other keys sign through `createHmac`.
 */
export interface RelayKey {
  bytes: Buffer;
  /** (K' xor ipad) as an ASCII string, or undefined when it is not ASCII (then `createHmac` is used). */
  innerPrefix: string | undefined;
  /** (K' xor opad) followed by 32 bytes where the inner digest is written before the outer hash. */
  outerBlock: Buffer;
}

const BLOCK_BYTES = 64;
const DIGEST_BYTES = 32;

function prepareKey(bytes: Buffer): RelayKey {
  const padded = Buffer.alloc(BLOCK_BYTES);
  (bytes.length > BLOCK_BYTES ? createHash('sha256').update(bytes).digest() : bytes).copy(padded);
  const inner = Buffer.alloc(BLOCK_BYTES);
  const outerBlock = Buffer.alloc(BLOCK_BYTES + DIGEST_BYTES);
  let ascii = true;
  for (let i = 0; i < BLOCK_BYTES; i++) {
    inner[i] = padded[i] ^ 0x36;
    outerBlock[i] = padded[i] ^ 0x5c;
    if (inner[i] >= 0x80) ascii = false;
  }
  return { bytes, innerPrefix: ascii ? inner.toString('latin1') : undefined, outerBlock };
}

// Validated keys by key-set object, prepared for signing. A hit also requires the very same key values in the same
// places, so a key set changed in place (a rotated or dropped key) is validated again and never served stale.
const validated = new WeakMap<RelayKeys, { sources: Array<string | Buffer>; prepared: RelayKey[] }>();

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
 * Validates the key set and returns the keys prepared for signing (strings as their UTF-8 bytes) in verification
 * order: current first, then previous. A Buffer key is used as it is, not copied.
 */
export function relayKeyList(keys: RelayKeys): RelayKey[] {
  if (keys === null || typeof keys !== 'object') {
    throw new RelayError('RELAY_INVALID_KEY', 'relay keys are missing');
  }
  const previous = keys.previous ?? [];
  if (!Array.isArray(previous)) {
    throw new RelayError('RELAY_INVALID_KEY', 'previous relay keys must be a list');
  }
  const cached = validated.get(keys);
  if (cached !== undefined && sameKeys(keys, previous, cached.sources)) return cached.prepared;
  const sources = [checkKey(keys.current), ...previous.map(checkKey)];
  const prepared = sources.map((key) => prepareKey(typeof key === 'string' ? Buffer.from(key, 'utf8') : key));
  validated.set(keys, { sources, prepared });
  return prepared;
}

/** Lowercase hex HMAC-SHA256 of the base64url payload segment under one key. */
export function signSegment(segment: string, key: RelayKey): string {
  if (key.innerPrefix === undefined) {
    return createHmac('sha256', key.bytes).update(segment, 'utf8').digest('hex');
  }
  // The inner digest travels as a binary (latin1) string (one character per byte) into the tail of the outer block; the
  // block is reused, which is safe because signing is synchronous and so calls cannot interleave.
  key.outerBlock.write(hash('sha256', key.innerPrefix + segment, 'binary'), BLOCK_BYTES, 'binary');
  return hash('sha256', key.outerBlock, 'hex');
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
export function verifySegment(segment: string, signatureHex: string, keys: RelayKey[]): boolean {
  if (signatureHex.length !== SIGNATURE_HEX_LENGTH) return false;
  if (givenHex.write(signatureHex, 0, 'utf8') !== SIGNATURE_HEX_LENGTH) return false;
  for (const key of keys) {
    const expected = signSegment(segment, key);
    if (expected.length !== SIGNATURE_HEX_LENGTH) continue;
    expectedHex.write(expected, 0, 'latin1');
    if (timingSafeEqual(expectedHex, givenHex)) return true;
  }
  return false;
}
