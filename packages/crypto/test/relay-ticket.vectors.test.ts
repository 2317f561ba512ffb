import { createHmac } from 'node:crypto';
import {
  MAX_RELAY_TICKET_TTL_SECONDS,
  RELAY_PROTOCOL_VERSION,
  canonicalJson,
  issueRelayTicket,
  resolveRelayTicket,
} from '../src';
import {
  EXAMPLE_KEY,
  aResolveInput,
  anIssueInput,
  counterBytes,
  exampleKeys,
  fixedNow,
} from './relay-fixtures';

// The README's worked example, also computed by an independent implementation (Python hmac + json).
const EXAMPLE_PAYLOAD_JSON =
  '{"cb":"http://127.0.0.1:8765/callback","cid":"connection-789","exp":1700000120,"iat":1700000000,' +
  '"nonce":"000102030405060708090a0b0c0d0e0f","pid":"profile-456","uid":"user-123","v":1}';
const EXAMPLE_TICKET =
  'eyJjYiI6Imh0dHA6Ly8xMjcuMC4wLjE6ODc2NS9jYWxsYmFjayIsImNpZCI6ImNvbm5lY3Rpb24tNzg5IiwiZXhwIjoxNzAwMDAwMTIwLCJp' +
  'YXQiOjE3MDAwMDAwMDAsIm5vbmNlIjoiMDAwMTAyMDMwNDA1MDYwNzA4MDkwYTBiMGMwZDBlMGYiLCJwaWQiOiJwcm9maWxlLTQ1NiIsInVp' +
  'ZCI6InVzZXItMTIzIiwidiI6MX0.7e0bd9ab6596f4be9c1fa5d96975491056cfa4a67304ffd0efa947d857aa4174';

describe('relay ticket format (fixed vectors)', () => {
  const issued = () =>
    issueRelayTicket(anIssueInput(), exampleKeys(), { now: fixedNow, randomBytes: counterBytes });

  it('issues exactly the README example ticket from fixed key, clock and random bytes', () => {
    expect(issued().ticket).toBe(EXAMPLE_TICKET);
  });

  it('encodes the canonical JSON payload as unpadded base64url before the dot', () => {
    const [segment] = EXAMPLE_TICKET.split('.');
    expect(Buffer.from(segment, 'base64url').toString('utf8')).toBe(EXAMPLE_PAYLOAD_JSON);
    expect(segment).not.toMatch(/[=+/]/);
  });

  it('signs the base64url segment (not the JSON) with lowercase hex HMAC-SHA256', () => {
    const [segment, signature] = EXAMPLE_TICKET.split('.');
    expect(signature).toBe(createHmac('sha256', EXAMPLE_KEY).update(segment).digest('hex'));
  });

  it('returns the payload with v, a 32-hex nonce, iat and exp = iat + ttl, and the expiry instant', () => {
    const { payload, expiresAt } = issued();
    expect(payload).toEqual({
      v: RELAY_PROTOCOL_VERSION,
      uid: 'user-123',
      pid: 'profile-456',
      cid: 'connection-789',
      cb: 'http://127.0.0.1:8765/callback',
      nonce: '000102030405060708090a0b0c0d0e0f',
      iat: 1_700_000_000,
      exp: 1_700_000_000 + MAX_RELAY_TICKET_TTL_SECONDS,
    });
    expect(canonicalJson(payload)).toBe(EXAMPLE_PAYLOAD_JSON);
    expect(expiresAt.toISOString()).toBe('2023-11-14T22:15:20.000Z');
  });

  it('resolves the README example into the resolution result with code and state on the callback', async () => {
    const result = await resolveRelayTicket(
      aResolveInput(EXAMPLE_TICKET, { authorizationCode: 'auth-code-xyz' }),
    );
    expect(result).toEqual({
      redirect_target: `http://127.0.0.1:8765/callback?code=auth-code-xyz&state=${EXAMPLE_TICKET}`,
      connection_id: 'connection-789',
      profile_id: 'profile-456',
      user_id: 'user-123',
      nonce: '000102030405060708090a0b0c0d0e0f',
      stateless: true,
      tokens_stored: false,
    });
  });

  it('draws the nonce from 16 CSPRNG bytes by default, different for every ticket', () => {
    const nonces = new Set(
      Array.from({ length: 20 }, () => issueRelayTicket(anIssueInput(), exampleKeys()).payload.nonce),
    );
    expect(nonces.size).toBe(20);
    for (const nonce of nonces) expect(nonce).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe('canonicalJson (RFC 8785)', () => {
  it('sorts keys by UTF-16 code units and writes numbers and strings the ECMAScript way', () => {
    // Key order and number forms from RFC 8785 section 3.2.3 and appendix B.
    expect(
      canonicalJson({ b: [1e21, 1e-7, -0, 0.000001], a: 'é\u2028"', '\u20ac': 1, '\r': 2, '1': 3 }),
    ).toBe('{"\\r":2,"1":3,"a":"é\u2028\\"","b":[1e+21,1e-7,0,0.000001],"€":1}');
  });

  it('refuses values JSON cannot represent', () => {
    expect(() => canonicalJson(Number.NaN)).toThrow();
    expect(() => canonicalJson(undefined)).toThrow();
  });
});
