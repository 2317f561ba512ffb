// The resolution fast paths must make exactly the decisions of their plain reference forms.
import fc from 'fast-check';
import { canonicalJson, validateCallbackUrl } from '../src';
import { assertCallbackAllowed } from '../src/callback-url';
import { decodePayloadSegment, scanCanonicalPayload } from '../src/payload-decoder';
import { canonicalPayloadJson } from '../src/relay-ticket';
import type { RelayTicketPayload } from '../src/relay-ticket';
import { withCodeAndState } from '../src/redirect-target';

const anyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.string({
    unit: fc.constantFrom('a', '"', '\\', '\n', '\u2028', 'é', '\u{1F511}', '/', ' ', '\u0085', '\u007f'),
    maxLength: 8,
  }),
);
const payloadArb: fc.Arbitrary<RelayTicketPayload> = fc.record({
  v: fc.maxSafeNat(),
  uid: anyString,
  pid: anyString,
  cid: anyString,
  cb: anyString,
  nonce: fc.oneof(anyString, fc.stringMatching(/^[0-9a-f]{32}$/)),
  iat: fc.maxSafeNat(),
  exp: fc.maxSafeNat(),
});
const reference = (text: string): RelayTicketPayload | undefined => {
  try {
    const value = JSON.parse(text);
    return canonicalJson(value) === text ? value : undefined;
  } catch {
    return undefined;
  }
};

// eslint-disable-next-line no-control-regex -- the identifier rule under test
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// The full decoding rules written plainly: canonical text, exactly the eight fields, their types and ranges.
const referenceDecode = (text: string): RelayTicketPayload | undefined => {
  const p = reference(text) as Record<string, unknown> | undefined;
  if (p === undefined || p === null || typeof p !== 'object' || Array.isArray(p)) return undefined;
  const keys = Object.keys(p).sort().join();
  const id = (x: unknown) => typeof x === 'string' && x.trim() !== '' && x.length <= 256 && !CONTROL.test(x);
  const time = (x: unknown) => Number.isSafeInteger(x) && (x as number) >= 0;
  if (keys !== 'cb,cid,exp,iat,nonce,pid,uid,v' || p.v !== 1 || !id(p.uid) || !id(p.pid) || !id(p.cid))
    return undefined;
  if (typeof p.cb !== 'string' || !/^[0-9a-f]{32}$/.test(String(p.nonce)) || !time(p.iat) || !time(p.exp))
    return undefined;
  return p as unknown as RelayTicketPayload;
};
const wellFormed = (text: string) => Buffer.from(text, 'utf8').toString('utf8') === text;

describe('canonical payload fast paths', () => {
  it('writes the same RFC 8785 text as canonicalJson for any payload', () => {
    fc.assert(
      fc.property(payloadArb, (p) => expect(canonicalPayloadJson(p)).toBe(canonicalJson(p))),
      { numRuns: 500 },
    );
  });

  it('scans canonical text into the very payload it encodes, or declines', () => {
    fc.assert(
      fc.property(payloadArb, (p) => {
        const scanned = scanCanonicalPayload(canonicalJson(p));
        if (scanned !== undefined) expect(scanned).toEqual(p);
        // Strings that need no JSON escape and hold no C1 control or DEL, with a protocol nonce, take the fast path.
        // eslint-disable-next-line no-control-regex -- the fast path's rule
        const plain = !/[\\\u0000-\u001f\u007f-\u009f"]/.test(p.uid + p.pid + p.cid + p.cb);
        if (plain && /^[0-9a-f]{32}$/.test(p.nonce)) expect(scanned).toEqual(p);
      }),
      { numRuns: 500 },
    );
  });

  it('accepts a mutated text only when it is the canonical form of what it holds', () => {
    const mutation = fc.tuple(
      payloadArb,
      fc.nat(),
      fc.constantFrom('', ' ', '"', '\\', '0', '-', ',', '}', '{', 'x'),
      fc.boolean(),
    );
    fc.assert(
      fc.property(mutation, ([p, at, piece, replace]) => {
        const text = canonicalJson(p);
        const i = at % (text.length + 1);
        const mutated = text.slice(0, i) + piece + text.slice(replace ? i + 1 : i);
        // Decoded UTF-8 never holds a lone surrogate, so neither does what the scanner is given.
        fc.pre(wellFormed(mutated));
        const scanned = scanCanonicalPayload(mutated);
        if (scanned !== undefined) {
          expect(canonicalPayloadJson(scanned)).toBe(mutated);
          expect(scanned).toEqual(reference(mutated));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('decodes a segment exactly when the plain rules (JSON.parse, canonical check, field checks) accept its text', () => {
    const valid = fc.record({
      v: fc.constant(1),
      uid: fc.constantFrom('u', 'user "q"', 'a\\b', 'é', 'x\u0085', '\u007f', '\u00a0', ' u', '\u2028'),
      pid: fc.constant('p'),
      cid: fc.constant('c'),
      cb: fc.constantFrom('http://127.0.0.1/cb', 'x"y'),
      nonce: fc.constantFrom('000102030405060708090a0b0c0d0e0f', '000102030405060708090A0B0C0D0E0F', 'é0'),
      iat: fc.nat(),
      exp: fc.nat(),
    });
    fc.assert(
      fc.property(valid, fc.nat(), fc.constantFrom('', ' ', '"', '\\', '0', '1', '}'), (p, at, piece) => {
        const text = canonicalJson(p);
        const i = at % (text.length + 1);
        const mutated = text.slice(0, i) + piece + text.slice(i);
        const segment = Buffer.from(mutated, 'utf8').toString('base64url');
        let decoded: RelayTicketPayload | undefined;
        try {
          decoded = decodePayloadSegment(segment);
        } catch {
          decoded = undefined;
        }
        expect(decoded).toEqual(referenceDecode(mutated));
      }),
      { numRuns: 500 },
    );
  });
});

describe('redirect target and callback cache fast paths', () => {
  const callback = fc.constantFrom(
    'http://127.0.0.1:8765/cb',
    'http://127.0.0.1/a/b?x=1',
    'http://127.0.0.1/a?y=a+b&z',
    'careapp://oauth/cb',
    'careapp:///cb?k=v',
  );

  it('builds the same string as URL.searchParams.set for any callback and code', () => {
    fc.assert(
      fc.property(callback, fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }), (cb, code) => {
        const ticket = 'eyJ2IjoxfQ.0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
        const target = new URL(cb);
        target.searchParams.set('code', code);
        target.searchParams.set('state', ticket);
        expect(withCodeAndState(cb, code, ticket)).toBe(target.href);
      }),
      { numRuns: 500 },
    );
  });

  it('gives the same decision as validateCallbackUrl on first and repeated calls', () => {
    const urls = fc.oneof(
      callback,
      fc.webUrl(),
      fc.string(),
      fc.constantFrom('http://localhost/cb', 'myapp://x/y'),
    );
    fc.assert(
      fc.property(urls, fc.constantFrom('careapp', 'myapp'), (url, scheme) => {
        const expected = (() => {
          try {
            validateCallbackUrl(url, scheme);
            return true;
          } catch {
            return false;
          }
        })();
        for (let k = 0; k < 2; k++) {
          if (expected) expect(() => assertCallbackAllowed(url, scheme)).not.toThrow();
          else expect(() => assertCallbackAllowed(url, scheme)).toThrow();
        }
      }),
      { numRuns: 300 },
    );
  });
});
