import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac, generateKeyPairSync, type KeyObject } from 'node:crypto';
import express from 'express';
import request from 'supertest';
import jwt from 'jsonwebtoken';
import fc from 'fast-check';
import {
  ALL_SCOPES,
  bearerAuth,
  createAccessTokenVerifier,
  finalizeApp,
  InvalidTokenError,
  ROLES,
  rolesToScopes,
  type AccessTokenVerifier,
} from '../src';

const SECRET = 'a-test-secret-that-is-long-enough-32b';
const base = { issuer: 'care-platform', audience: 'care-platform' };
const claims = { sub: 'u1', email: 'a@example.test', tenantId: 't1', roles: ['USER'] };
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

function hs(payload: object = claims, opts: jwt.SignOptions = {}, secret = SECRET): string {
  return jwt.sign(payload, secret, {
    algorithm: 'HS256',
    issuer: 'care-platform',
    audience: 'care-platform',
    expiresIn: 60,
    ...opts,
  });
}

async function reason(verifier: AccessTokenVerifier, token: string): Promise<string> {
  const err = await verifier.verify(token).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InvalidTokenError);
  expect((err as InvalidTokenError).status).toBe(401);
  return (err as InvalidTokenError).reason;
}

describe('rolesToScopes', () => {
  it('grants the role to scope table per role', () => {
    expect(rolesToScopes(['VIEWER'])).toEqual(['chat:read', 'workflow:read', 'kb:read', 'config:read']);
    expect(rolesToScopes(['USER'])).not.toContain('admin:users');
    expect(rolesToScopes(['TENANT_ADMIN'])).toEqual(
      expect.arrayContaining(['admin:users', 'admin:config', 'config:read', 'kb:access']),
    );
    expect(rolesToScopes(['TENANT_ADMIN'])).not.toContain('platform:admin');
    expect(rolesToScopes(['PLATFORM_ADMIN'])).toEqual([...ALL_SCOPES]);
  });

  it('ignores unknown roles and is the union of the known ones', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...ROLES), fc.string())), (roles) => {
        const union = new Set(roles.flatMap((r) => rolesToScopes([r])));
        expect(new Set(rolesToScopes(roles))).toEqual(union);
        for (const s of rolesToScopes(roles)) expect(ALL_SCOPES).toContain(s);
      }),
      { numRuns: 200 },
    );
  });
});

describe('createAccessTokenVerifier, builtin', () => {
  const verifier = createAccessTokenVerifier({ mode: 'builtin', secret: SECRET, ...base });
  /** The principal of `claims` (a USER of t1), without a token id. */
  const USER_PRINCIPAL = {
    userId: 'u1',
    email: 'a@example.test',
    tenantId: 't1',
    roles: ['USER'],
    scopes: rolesToScopes(['USER']),
  };

  it('returns the principal of a valid HS256 token', async () => {
    const p = await verifier.verify(hs(claims, { jwtid: 'j1' }));
    expect(p).toEqual({ ...USER_PRINCIPAL, tokenId: 'j1' });
  });

  it.each(['none', 'None', 'nOnE', 'NONE'])('rejects alg %s with or without a signature', async (alg) => {
    const unsigned = `${b64({ alg, typ: 'JWT' })}.${b64({ ...claims, iss: base.issuer, aud: base.audience, exp: 9999999999 })}`;
    expect(await reason(verifier, `${unsigned}.`)).toBe('algorithm not allowed');
    const sig = createHmac('sha256', SECRET).update(unsigned).digest('base64url');
    expect(await reason(verifier, `${unsigned}.${sig}`)).toBe('algorithm not allowed');
  });

  it('rejects expired, not-yet-valid, wrong issuer, wrong audience, wrong key and tampered tokens', async () => {
    expect(await reason(verifier, hs(claims, { expiresIn: -10 }))).toMatch(/expired/);
    expect(await reason(verifier, hs(claims, { notBefore: 60 }))).toMatch(/not active/);
    expect(await reason(verifier, hs(claims, { issuer: 'evil' }))).toMatch(/issuer/);
    expect(await reason(verifier, hs(claims, { audience: 'other' }))).toMatch(/audience/);
    expect(await reason(verifier, hs(claims, {}, 'another-secret-that-is-long-enough-32'))).toMatch(
      /signature/,
    );
    const [h, , s] = hs().split('.');
    const forged = b64({
      ...claims,
      roles: ['PLATFORM_ADMIN'],
      iss: base.issuer,
      aud: base.audience,
      exp: 9999999999,
    });
    expect(await reason(verifier, `${h}.${forged}.${s}`)).toMatch(/signature/);
  });

  it('requires exp, sub, tenantId and roles', async () => {
    expect(
      await reason(verifier, jwt.sign(claims, SECRET, { issuer: base.issuer, audience: base.audience })),
    ).toBe('exp is required');
    expect(await reason(verifier, hs({ ...claims, tenantId: undefined }))).toBe('tenantId is required');
    expect(await reason(verifier, hs({ ...claims, tenantId: '' }))).toBe('tenantId is required');
    expect(await reason(verifier, hs({ ...claims, roles: 'USER' }))).toBe('roles are required');
    expect(await reason(verifier, hs({ ...claims, sub: undefined }))).toBe('sub is required');
  });

  it('refuses other HMAC algorithms and garbage', async () => {
    expect(await reason(verifier, hs(claims, { algorithm: 'HS512' }))).toBe('algorithm not allowed');
    expect(await reason(verifier, 'not-a-jwt')).toBe('malformed');
    expect(await reason(verifier, 'x'.repeat(9000))).toBe('malformed');
  });

  it('rejects a token naming a critical header parameter it does not understand (RFC 7515 4.1.11)', async () => {
    for (const crit of [['exp'], ['http://example.test/ext'], [], 'b64']) {
      const token = jwt.sign(claims, SECRET, {
        algorithm: 'HS256',
        ...base,
        expiresIn: 60,
        header: { alg: 'HS256', crit } as never,
      });
      expect(await reason(verifier, token)).toBe('unsupported critical header parameter');
    }
  });

  it('keeps a non-UUID subject as the opaque user id', async () => {
    expect((await verifier.verify(hs({ ...claims, sub: 'auth0|5f7c8ec7c33c6c004bbafe82' }))).userId).toBe(
      'auth0|5f7c8ec7c33c6c004bbafe82',
    );
  });

  it('uses the injected clock', async () => {
    const later = createAccessTokenVerifier({
      mode: 'builtin',
      secret: SECRET,
      ...base,
      now: () => Date.now() + 120_000,
    });
    expect(await reason(later, hs())).toMatch(/expired/);
  });

  it('checks the signature of a repeated token once and serves copies of the remembered caller', async () => {
    const spy = jest.spyOn(jwt, 'verify');
    try {
      const v = createAccessTokenVerifier({ mode: 'builtin', secret: SECRET, ...base });
      const token = hs();
      const first = await v.verify(token);
      first.roles.push('PLATFORM_ADMIN');
      const second = await v.verify(token);
      expect(second).toEqual(USER_PRINCIPAL);
      expect(spy).toHaveBeenCalledTimes(1);
      // A token that differs in any byte is checked on its own (and a tampered one still fails).
      expect(await reason(v, `${token.slice(0, -2)}${token.slice(-2) === 'AA' ? 'AB' : 'AA'}`)).toMatch(
        /signature/,
      );
      expect(spy).toHaveBeenCalledTimes(2);
    } finally {
      spy.mockRestore();
    }
  });

  it('stops accepting a remembered token when it expires, and remembers nothing when the cache is off', async () => {
    let t = Date.now();
    const v = createAccessTokenVerifier({ mode: 'builtin', secret: SECRET, ...base, now: () => t });
    const token = hs(claims, { expiresIn: 60 });
    await v.verify(token);
    t += 59_000;
    expect((await v.verify(token)).userId).toBe('u1');
    t += 2_000;
    expect(await reason(v, token)).toMatch(/expired/);
    const spy = jest.spyOn(jwt, 'verify');
    try {
      const off = createAccessTokenVerifier({
        mode: 'builtin',
        secret: SECRET,
        ...base,
        verifiedCacheSize: 0,
      });
      const fresh = hs();
      await off.verify(fresh);
      await off.verify(fresh);
      expect(spy).toHaveBeenCalledTimes(2);
    } finally {
      spy.mockRestore();
    }
  });

  it('refuses to be built with a short secret, foreign algorithms or no JWKS URI', () => {
    expect(() => createAccessTokenVerifier({ mode: 'builtin', secret: 'short', ...base })).toThrow(
      /32 bytes/,
    );
    expect(() =>
      createAccessTokenVerifier({ mode: 'builtin', secret: SECRET, ...base, algorithms: ['RS256'] }),
    ).toThrow(/not allowed/);
    expect(() =>
      createAccessTokenVerifier({ mode: 'external', ...base, algorithms: ['HS256'], jwksUri: 'http://x' }),
    ).toThrow(/not allowed/);
    expect(() => createAccessTokenVerifier({ mode: 'external', ...base })).toThrow(/JWKS/);
  });
});

describe('createAccessTokenVerifier, external (local JWKS server)', () => {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const rotated = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = (k: KeyObject, kid: string, alg: string) => ({
    ...k.export({ format: 'jwk' }),
    kid,
    alg,
    use: 'sig',
  });
  let keys = [jwk(rsa.publicKey, 'rsa1', 'RS256'), jwk(ec.publicKey, 'ec1', 'ES256')];
  let hits = 0;
  let server: http.Server;
  let uri = '';
  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      hits++;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    uri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const sign = (key: KeyObject, alg: jwt.Algorithm, kid: string, payload: object = claims) =>
    jwt.sign(payload, key, {
      algorithm: alg,
      keyid: kid,
      issuer: base.issuer,
      audience: base.audience,
      expiresIn: 60,
    });
  const make = (extra = {}) =>
    createAccessTokenVerifier({ mode: 'external', ...base, jwksUri: uri, ...extra });

  it('accepts RS256 and ES256 tokens signed by published keys', async () => {
    const v = make();
    expect((await v.verify(sign(rsa.privateKey, 'RS256', 'rsa1'))).tenantId).toBe('t1');
    expect((await v.verify(sign(ec.privateKey, 'ES256', 'ec1'))).userId).toBe('u1');
  });

  it('checks every external token again (a key withdrawn from the JWKS stops its tokens at once)', async () => {
    const v = make();
    const token = sign(rsa.privateKey, 'RS256', 'rsa1');
    const spy = jest.spyOn(jwt, 'verify');
    try {
      await v.verify(token);
      await v.verify(token);
      expect(spy).toHaveBeenCalledTimes(2);
    } finally {
      spy.mockRestore();
    }
  });

  it('rejects HS256 signed with the RSA public key (algorithm confusion)', async () => {
    const v = make();
    const pem = rsa.publicKey.export({ format: 'pem', type: 'spki' }).toString();
    const unsigned = `${b64({ alg: 'HS256', typ: 'JWT', kid: 'rsa1' })}.${b64({ ...claims, iss: base.issuer, aud: base.audience, exp: 9999999999 })}`;
    const token = `${unsigned}.${createHmac('sha256', pem).update(unsigned).digest('base64url')}`;
    expect(await reason(v, token)).toBe('algorithm not allowed');
  });

  it('rejects an RS256 token signed by a published key when its header carries crit', async () => {
    const token = jwt.sign(claims, rsa.privateKey, {
      algorithm: 'RS256',
      keyid: 'rsa1',
      ...base,
      expiresIn: 60,
      header: { alg: 'RS256', kid: 'rsa1', crit: ['urn:example:ext'], 'urn:example:ext': true } as never,
    });
    expect(await reason(make(), token)).toBe('unsupported critical header parameter');
  });

  it('rejects a token whose header algorithm does not match the key', async () => {
    const v = make();
    expect(await reason(v, sign(ec.privateKey, 'ES256', 'rsa1'))).toBe('key algorithm mismatch');
  });

  it('fetches a rotated key once and refuses an unknown-kid flood without hammering the JWKS endpoint', async () => {
    const v = make({ jwksRequestsPerMinute: 5 });
    await v.verify(sign(rsa.privateKey, 'RS256', 'rsa1'));
    keys = [...keys, jwk(rotated.publicKey, 'rsa2', 'RS256')];
    hits = 0;
    expect((await v.verify(sign(rotated.privateKey, 'RS256', 'rsa2'))).userId).toBe('u1');
    await v.verify(sign(rotated.privateKey, 'RS256', 'rsa2'));
    expect(hits).toBe(1);
    const flood = await Promise.all(
      Array.from({ length: 40 }, (_, i) => reason(v, sign(rsa.privateKey, 'RS256', `ghost-${i}`))),
    );
    expect(new Set(flood)).toEqual(new Set(['unknown kid', 'jwks rate limited']));
    expect(hits).toBeLessThanOrEqual(5);
    // Known keys keep working from the cache during the flood.
    expect((await v.verify(sign(rsa.privateKey, 'RS256', 'rsa1'))).tenantId).toBe('t1');
  });

  it('answers 503 when the JWKS endpoint is unreachable', async () => {
    const v = createAccessTokenVerifier({
      mode: 'external',
      ...base,
      jwksUri: 'http://127.0.0.1:1/jwks',
      jwksTimeoutMs: 500,
    });
    await expect(v.verify(sign(rsa.privateKey, 'RS256', 'rsa1'))).rejects.toMatchObject({
      status: 503,
      code: 'JWKS_UNAVAILABLE',
    });
  });
});

describe('bearerAuth', () => {
  const verifier = createAccessTokenVerifier({ mode: 'builtin', secret: SECRET, ...base });
  function app(optional?: boolean) {
    const a = express();
    a.get('/who', bearerAuth(verifier, { optional }), (req, res) => {
      res.json({ principal: req.principal ?? null });
    });
    return finalizeApp(a);
  }

  it('answers 401 problem with WWW-Authenticate: Bearer when the header is missing', async () => {
    const res = await request(app()).get('/who');
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body.code).toBe('UNAUTHENTICATED');
  });

  it('sets req.principal for a valid token, the scheme being case-insensitive', async () => {
    const res = await request(app()).get('/who').set('Authorization', `bearer ${hs()}`);
    expect(res.status).toBe(200);
    expect(res.body.principal).toMatchObject({ userId: 'u1', tenantId: 't1' });
  });

  it('rejects invalid tokens and other schemes even when optional, and passes anonymous callers when optional', async () => {
    const bad = await request(app(true))
      .get('/who')
      .set('Authorization', `Bearer ${hs(claims, { expiresIn: -5 })}`);
    expect(bad.status).toBe(401);
    expect(bad.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token"/);
    expect(bad.body.detail).toBe('The access token is invalid or expired');
    expect((await request(app(true)).get('/who').set('Authorization', 'Basic dTpw')).status).toBe(401);
    const anon = await request(app(true)).get('/who');
    expect(anon.status).toBe(200);
    expect(anon.body.principal).toBeNull();
  });
});
