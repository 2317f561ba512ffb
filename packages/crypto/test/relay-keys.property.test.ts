import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { relayKeyList, signSegment, verifySegment } from '../src/relay-keys';

const RUNS = { numRuns: 500 };

// Keys of every kind the package accepts: ASCII strings (the one-shot path), strings with wider characters and
// Buffers with any bytes (the createHmac path), and keys longer than the 64-byte block (hashed first).
const stringKey = fc.oneof(
  fc.string({ minLength: 32, maxLength: 200, unit: 'grapheme-ascii' }),
  fc.string({ minLength: 32, maxLength: 100, unit: 'grapheme' }),
  fc.string({ minLength: 64, maxLength: 100, unit: 'binary' }),
);
const bufferKey = fc.uint8Array({ minLength: 32, maxLength: 200 }).map((bytes) => Buffer.from(bytes));
// Messages as received: base64url segments, but also any text a caller can put in the query string.
const message = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9_-]{0,400}$/),
  fc.string({ maxLength: 300, unit: 'binary' }),
);

describe('relay HMAC-SHA256 (one-shot construction)', () => {
  it('equals createHmac for any accepted key and any message', () => {
    fc.assert(
      fc.property(fc.oneof(stringKey, bufferKey), message, (key, text) => {
        const [prepared] = relayKeyList({ current: key });
        const reference = createHmac('sha256', key).update(text, 'utf8').digest('hex');
        expect(signSegment(text, prepared)).toBe(reference);
        // Signing twice with the same prepared key (the reused outer block) gives the same answer.
        expect(signSegment(text, prepared)).toBe(reference);
      }),
      RUNS,
    );
  });

  it('takes the one-shot path exactly for keys whose padded block is ASCII', () => {
    expect(relayKeyList({ current: 'a'.repeat(64) })[0].innerPrefix).toHaveLength(64);
    expect(relayKeyList({ current: 'é'.repeat(32) })[0].innerPrefix).toBeUndefined();
    expect(relayKeyList({ current: Buffer.alloc(32, 0xff) })[0].innerPrefix).toBeUndefined();
    // A 65-byte ASCII key is hashed to 32 arbitrary bytes first: not ASCII in general.
    const long = relayKeyList({ current: 'k'.repeat(65) })[0];
    const digest = createHmac('sha256', 'k'.repeat(65)).update('x').digest('hex');
    expect(signSegment('x', long)).toBe(digest);
  });

  it('verifies against current and previous keys, and only those', () => {
    fc.assert(
      fc.property(stringKey, stringKey, stringKey, message, (current, previous, other, text) => {
        fc.pre(other !== current && other !== previous);
        const keys = relayKeyList({ current, previous: [previous] });
        const byPrevious = createHmac('sha256', previous).update(text, 'utf8').digest('hex');
        const byOther = createHmac('sha256', other).update(text, 'utf8').digest('hex');
        expect(verifySegment(text, byPrevious, keys)).toBe(true);
        expect(verifySegment(text, byOther, keys)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});
