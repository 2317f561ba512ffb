import { createHmac } from 'node:crypto';
import { InMemoryNonceStore, RelayError, canonicalJson, resolveRelayTicket } from '../src';
import type { ResolveInput } from '../src';
import {
  EXAMPLE_KEY,
  FIXED_NOW_MS,
  FIXED_NOW_SEC,
  OTHER_KEY,
  aPayload,
  aResolveInput,
  aTicket,
  forgeTicket,
  fixedNow,
} from './relay-fixtures';

async function resolveCode(input: ResolveInput): Promise<string> {
  try {
    await resolveRelayTicket(input);
  } catch (error) {
    if (error instanceof RelayError) return error.code;
    throw error;
  }
  return 'RESOLVED';
}

const forged = (overrides: Record<string, unknown>, key?: string) =>
  forgeTicket(canonicalJson(aPayload(overrides)), key);
const tamper = (ticket: string) =>
  `${ticket.slice(0, 10)}${ticket[10] === 'A' ? 'B' : 'A'}${ticket.slice(11)}`;
const later = (seconds: number) => () => FIXED_NOW_MS + seconds * 1000;

describe('resolveRelayTicket check 1: presence', () => {
  it.each([undefined, null, '', '   ', ['a', 'b'] as unknown as string])(
    'rejects a missing or blank ticket (%j) with RELAY_MISSING_PARAMETER',
    async (relayTicket) => {
      expect(await resolveCode(aResolveInput(relayTicket))).toBe('RELAY_MISSING_PARAMETER');
    },
  );

  it.each([undefined, null, '', '\t'])(
    'rejects a missing or blank code (%j) with RELAY_MISSING_PARAMETER',
    async (code) => {
      expect(await resolveCode(aResolveInput(aTicket(), { authorizationCode: code }))).toBe(
        'RELAY_MISSING_PARAMETER',
      );
    },
  );

  it('rejects an oversized code or ticket with RELAY_PARAMETER_TOO_LONG', async () => {
    expect(await resolveCode(aResolveInput(aTicket(), { authorizationCode: 'c'.repeat(4097) }))).toBe(
      'RELAY_PARAMETER_TOO_LONG',
    );
    expect(await resolveCode(aResolveInput('a'.repeat(8193)))).toBe('RELAY_PARAMETER_TOO_LONG');
  });
});

describe('resolveRelayTicket check 2: structure and signature', () => {
  it.each([
    ['no dot', 'abc'],
    ['two dots', `${aTicket()}.00`],
    ['empty payload segment', `.${'0'.repeat(64)}`],
    ['padding in the segment', `${aTicket().split('.')[0]}=.${'0'.repeat(64)}`],
    [
      'uppercase hex signature',
      aTicket()
        .toUpperCase()
        .replace(/^[^.]*/, (s) => s.toLowerCase()),
    ],
    ['short signature', aTicket().slice(0, -2)],
  ])('rejects a ticket with %s as RELAY_MALFORMED_TICKET', async (_name, ticket) => {
    expect(await resolveCode(aResolveInput(ticket))).toBe('RELAY_MALFORMED_TICKET');
  });

  it('rejects a changed payload segment with RELAY_BAD_SIGNATURE', async () => {
    expect(await resolveCode(aResolveInput(tamper(aTicket())))).toBe('RELAY_BAD_SIGNATURE');
  });

  it('rejects a ticket signed with an unknown key with RELAY_BAD_SIGNATURE', async () => {
    expect(await resolveCode(aResolveInput(forged({}, OTHER_KEY)))).toBe('RELAY_BAD_SIGNATURE');
  });

  it.each([
    ['whitespace in the JSON', JSON.stringify(aPayload(), null, 1)],
    ['keys out of canonical order', JSON.stringify(aPayload())],
    ['a duplicated key', canonicalJson(aPayload()).replace('{', '{"cb":"x",')],
    ['a JSON array', '[1]'],
    ['not JSON', 'hello'],
    ['a byte-order mark', `\ufeff${canonicalJson(aPayload())}`],
    ['an extra field', canonicalJson(aPayload({ admin: true }))],
    ['a missing field', canonicalJson({ ...aPayload(), pid: undefined })],
    ['version 2', canonicalJson(aPayload({ v: 2 }))],
    ['a numeric uid', canonicalJson(aPayload({ uid: 123 }))],
    ['a short nonce', canonicalJson(aPayload({ nonce: 'abcd' }))],
    ['an uppercase nonce', canonicalJson(aPayload({ nonce: '000102030405060708090A0B0C0D0E0F' }))],
    ['a fractional exp', canonicalJson(aPayload({ exp: FIXED_NOW_SEC + 60.5 }))],
    ['a string iat', canonicalJson(aPayload({ iat: String(FIXED_NOW_SEC) }))],
  ])('rejects a correctly signed payload with %s as RELAY_MALFORMED_TICKET', async (_name, text) => {
    expect(await resolveCode(aResolveInput(forgeTicket(text)))).toBe('RELAY_MALFORMED_TICKET');
  });

  it('rejects a non-canonical base64url spelling of a correctly signed payload', async () => {
    // Pick a uid whose segment ends in a partial group, then set a stray low bit in its last character:
    // Node decodes it to the same bytes, but it is not the canonical encoding and must not verify as one.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const uid = ['u', 'uu', 'uuu'].find((u) => forged({ uid: u }).split('.')[0].length % 4 === 2)!;
    const segment = forged({ uid }).split('.')[0];
    const last = alphabet.indexOf(segment[segment.length - 1]);
    const odd = `${segment.slice(0, -1)}${alphabet[last | 1]}`;
    expect(odd).not.toBe(segment);
    expect(Buffer.from(odd, 'base64url')).toEqual(Buffer.from(segment, 'base64url'));
    const signed = `${odd}.${createHmac('sha256', EXAMPLE_KEY).update(odd).digest('hex')}`;
    expect(await resolveCode(aResolveInput(signed))).toBe('RELAY_MALFORMED_TICKET');
  });
});

describe('resolveRelayTicket check 2: the signature string must be exactly the expected hex', () => {
  // The structure is checked in full only when the signature does not match, so a match itself must imply it.
  const [segment, signature] = aTicket().split('.');
  const widen = (at: number, extra: number) =>
    `${segment}.${signature.slice(0, at)}${String.fromCharCode(extra + signature.charCodeAt(at))}${signature.slice(at + 1)}`;

  it.each([
    ['a wide character whose low byte is the right hex digit', widen(5, 0x100)],
    ['a C1 character one bit away from the right hex digit', widen(63, 0x80)],
    [
      'a two-byte character in front, the rest truncated to 64 bytes',
      `${segment}.é${signature.slice(0, 63)}`,
    ],
    ['a lone surrogate in place of a digit', `${segment}.\ud800${signature.slice(1)}`],
  ])('rejects the genuine signature spelled with %s as RELAY_MALFORMED_TICKET', async (_name, ticket) => {
    expect(await resolveCode(aResolveInput(ticket))).toBe('RELAY_MALFORMED_TICKET');
  });

  it.each([
    ['a padding character', `${segment}=`],
    ['the standard base64 alphabet', segment.replace(/-/g, '+').replace(/_/g, '/') + '+'],
    ['a dot', `${segment.slice(0, 4)}.${segment.slice(4)}`],
    ['a space', `${segment.slice(0, 4)} ${segment.slice(4)}`],
    ['a non-ASCII letter', `${segment.slice(0, 4)}é${segment.slice(4)}`],
  ])('rejects a correctly signed segment holding %s as RELAY_MALFORMED_TICKET', async (_name, odd) => {
    const signed = `${odd}.${createHmac('sha256', EXAMPLE_KEY).update(odd).digest('hex')}`;
    expect(await resolveCode(aResolveInput(signed))).toBe('RELAY_MALFORMED_TICKET');
  });

  it('tells a malformed ticket from a bad signature only by its structure', async () => {
    expect(await resolveCode(aResolveInput(`${segment}.${'0'.repeat(64)}`))).toBe('RELAY_BAD_SIGNATURE');
    expect(await resolveCode(aResolveInput(`${segment}.${'0'.repeat(63)}g`))).toBe('RELAY_MALFORMED_TICKET');
    expect(await resolveCode(aResolveInput(`${segment}!.${'0'.repeat(64)}`))).toBe('RELAY_MALFORMED_TICKET');
  });
});

describe('resolveRelayTicket key set changes', () => {
  it('follows a key set changed in place: a dropped key stops verifying, a short key is refused', async () => {
    const keys: { current: string; previous: string[] } = { current: OTHER_KEY, previous: [EXAMPLE_KEY] };
    expect(await resolveCode(aResolveInput(aTicket(), { keys }))).toBe('RESOLVED');
    keys.previous.pop();
    expect(await resolveCode(aResolveInput(aTicket(), { keys }))).toBe('RELAY_BAD_SIGNATURE');
    keys.previous.push(EXAMPLE_KEY);
    expect(await resolveCode(aResolveInput(aTicket(), { keys }))).toBe('RESOLVED');
    keys.current = 'too-short';
    expect(await resolveCode(aResolveInput(aTicket(), { keys }))).toBe('RELAY_INVALID_KEY');
  });
});

describe('resolveRelayTicket check 3: time', () => {
  it('accepts a ticket up to and including its exp second and rejects it after with RELAY_EXPIRED', async () => {
    expect(await resolveCode(aResolveInput(aTicket({ ttlSeconds: 60 }), { now: later(60) }))).toBe(
      'RESOLVED',
    );
    expect(
      await resolveCode(aResolveInput(aTicket({ ttlSeconds: 60 }), { now: () => FIXED_NOW_MS + 60_001 })),
    ).toBe('RELAY_EXPIRED');
  });

  it('rejects a signed ticket whose exp - iat exceeds 120 with RELAY_TTL_TOO_LONG', async () => {
    expect(await resolveCode(aResolveInput(forged({ exp: FIXED_NOW_SEC + 121 })))).toBe('RELAY_TTL_TOO_LONG');
  });

  it('rejects a signed ticket whose exp is not after iat with RELAY_INVALID_TTL', async () => {
    expect(await resolveCode(aResolveInput(forged({ exp: FIXED_NOW_SEC })))).toBe('RELAY_INVALID_TTL');
  });

  it('tolerates 5 s of clock skew on iat and rejects more with RELAY_ISSUED_IN_FUTURE', async () => {
    expect(
      await resolveCode(aResolveInput(forged({ iat: FIXED_NOW_SEC + 5, exp: FIXED_NOW_SEC + 65 }))),
    ).toBe('RESOLVED');
    expect(
      await resolveCode(aResolveInput(forged({ iat: FIXED_NOW_SEC + 6, exp: FIXED_NOW_SEC + 66 }))),
    ).toBe('RELAY_ISSUED_IN_FUTURE');
  });
});

describe('resolveRelayTicket check 4: single use', () => {
  it('accepts a ticket once and rejects the second resolution with RELAY_NONCE_REPLAYED', async () => {
    const store = new InMemoryNonceStore({ now: fixedNow });
    const ticket = aTicket();
    expect(await resolveCode(aResolveInput(ticket, { consumedNonces: store }))).toBe('RESOLVED');
    expect(
      await resolveCode(aResolveInput(ticket, { consumedNonces: store, authorizationCode: 'other' })),
    ).toBe('RELAY_NONCE_REPLAYED');
  });

  it('fails closed when the store fails', async () => {
    const broken = { consume: () => Promise.reject(new Error('down')) };
    await expect(resolveRelayTicket(aResolveInput(aTicket(), { consumedNonces: broken }))).rejects.toThrow(
      'down',
    );
  });
});

describe('resolveRelayTicket check 5: allowlist again', () => {
  it('rejects a correctly signed ticket carrying a foreign callback with RELAY_CALLBACK_NOT_ALLOWED', async () => {
    expect(await resolveCode(aResolveInput(forged({ cb: 'https://evil.example/steal' })))).toBe(
      'RELAY_CALLBACK_NOT_ALLOWED',
    );
  });

  it('honours the companion scheme configured for resolution', async () => {
    const ticket = forged({ cb: 'myapp://oauth/cb' });
    expect(await resolveCode(aResolveInput(ticket))).toBe('RELAY_CALLBACK_NOT_ALLOWED');
    expect(await resolveCode(aResolveInput(ticket, { companionScheme: 'myapp' }))).toBe('RESOLVED');
  });
});

describe('resolveRelayTicket check order', () => {
  const expiredNow = later(3600);
  it.each([
    [
      'missing code before a bad signature',
      aResolveInput(tamper(aTicket()), { authorizationCode: '' }),
      'RELAY_MISSING_PARAMETER',
    ],
    [
      'bad signature before expiry',
      aResolveInput(tamper(aTicket()), { now: expiredNow }),
      'RELAY_BAD_SIGNATURE',
    ],
    [
      'malformed payload before expiry',
      aResolveInput(forgeTicket('[]'), { now: expiredNow }),
      'RELAY_MALFORMED_TICKET',
    ],
    [
      'expiry before too-long ttl',
      aResolveInput(forged({ exp: FIXED_NOW_SEC + 500 }), { now: expiredNow }),
      'RELAY_EXPIRED',
    ],
    [
      'expiry before a foreign callback',
      aResolveInput(forged({ cb: 'https://evil.example/' }), { now: expiredNow }),
      'RELAY_EXPIRED',
    ],
  ])('reports %s', async (_name, input, code) => {
    expect(await resolveCode(input)).toBe(code);
  });

  it('reports a replay before a foreign callback, and consumes the nonce of a ticket it then rejects', async () => {
    const store = new InMemoryNonceStore({ now: fixedNow });
    const ticket = forged({ cb: 'https://evil.example/' });
    expect(await resolveCode(aResolveInput(ticket, { consumedNonces: store }))).toBe(
      'RELAY_CALLBACK_NOT_ALLOWED',
    );
    expect(await resolveCode(aResolveInput(ticket, { consumedNonces: store }))).toBe('RELAY_NONCE_REPLAYED');
  });

  it('writes nothing to the store when an earlier check fails', async () => {
    const store = new InMemoryNonceStore({ now: fixedNow });
    await resolveCode(aResolveInput(aTicket(), { consumedNonces: store, now: later(3600) }));
    await resolveCode(aResolveInput(tamper(aTicket()), { consumedNonces: store }));
    expect(store.size).toBe(0);
  });
});
