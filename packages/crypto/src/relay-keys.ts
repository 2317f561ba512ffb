import { createHmac, timingSafeEqual } from 'node:crypto';
import { RelayError } from './relay-error';

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

const SIGNATURE_PATTERN = /^[0-9a-f]{64}$/;

function checkKey(key: unknown): string | Buffer {
  // A string's length counts UTF-16 units; spread counts code points so a key of 16 emoji does not pass.
  // The first test skips the spread for long keys (a code point is at most two units).
  if (
    typeof key === 'string' &&
    (key.length >= 2 * MIN_RELAY_KEY_LENGTH || [...key].length >= MIN_RELAY_KEY_LENGTH)
  ) {
    return key;
  }
  if (Buffer.isBuffer(key) && key.length >= MIN_RELAY_KEY_LENGTH) return key;
  throw new RelayError(
    'RELAY_INVALID_KEY',
    `relay keys must have at least ${MIN_RELAY_KEY_LENGTH} characters`,
  );
}

/** Validates the key set and returns it in verification order: current first, then previous. */
export function relayKeyList(keys: RelayKeys): Array<string | Buffer> {
  if (keys === null || typeof keys !== 'object') {
    throw new RelayError('RELAY_INVALID_KEY', 'relay keys are missing');
  }
  const previous = keys.previous ?? [];
  if (!Array.isArray(previous))
    throw new RelayError('RELAY_INVALID_KEY', 'previous relay keys must be a list');
  return [checkKey(keys.current), ...previous.map(checkKey)];
}

/** Lowercase hex HMAC-SHA256 of the base64url payload segment under one key. */
export function signSegment(segment: string, key: string | Buffer): string {
  return createHmac('sha256', key).update(segment, 'utf8').digest('hex');
}

/**
 * Constant-time check of a hex signature against every key. The format (64 lowercase hex characters) is
 * checked by the caller; the byte length is checked again here because timingSafeEqual throws on a mismatch.
 */
export function verifySegment(segment: string, signatureHex: string, keys: Array<string | Buffer>): boolean {
  if (!SIGNATURE_PATTERN.test(signatureHex)) return false;
  const given = Buffer.from(signatureHex, 'hex');
  for (const key of keys) {
    const expected = createHmac('sha256', key).update(segment, 'utf8').digest();
    if (expected.length === given.length && timingSafeEqual(expected, given)) return true;
  }
  return false;
}
