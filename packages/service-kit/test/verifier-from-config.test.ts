// verifierFromConfig: HS256 with JWT_SECRET (issuer/audience from config, the injected clock), the provider's JWKS
// in external mode, and the two behaviours without a secret (no verifier, or one refusing every token).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { InvalidTokenError, UnauthorizedError, verifierFromConfig, verifierSettingsFromConfig } from '../src';

const SECRET = 'a-jwt-secret-of-at-least-thirty-two-bytes';
const claims = { sub: 'u1', tenantId: 'acme', roles: ['USER'] };
const base = { JWT_ISSUER: 'care-platform', JWT_AUDIENCE: 'care-platform' };

describe('verifierFromConfig, builtin', () => {
  it('verifies HS256 tokens with the configured secret, issuer and audience', async () => {
    const verifier = verifierFromConfig({ ...base, AUTH_PROVIDER: 'builtin', JWT_SECRET: SECRET });
    const token = jwt.sign(claims, SECRET, {
      algorithm: 'HS256',
      issuer: 'care-platform',
      audience: 'care-platform',
      expiresIn: 60,
    });
    await expect(verifier!.verify(token)).resolves.toMatchObject({
      userId: 'u1',
      tenantId: 'acme',
      roles: ['USER'],
    });
    const otherAudience = jwt.sign(claims, SECRET, {
      algorithm: 'HS256',
      issuer: 'care-platform',
      audience: 'x',
      expiresIn: 60,
    });
    await expect(verifier!.verify(otherAudience)).rejects.toBeInstanceOf(InvalidTokenError);
  });

  it('reads time from the injected clock', async () => {
    let now = Date.now();
    const verifier = verifierFromConfig({ ...base, JWT_SECRET: SECRET }, { now: () => now })!;
    const token = jwt.sign(claims, SECRET, {
      algorithm: 'HS256',
      issuer: 'care-platform',
      audience: 'care-platform',
      expiresIn: 60,
    });
    await expect(verifier.verify(token)).resolves.toBeDefined();
    now += 120_000;
    await expect(verifier.verify(token)).rejects.toBeInstanceOf(InvalidTokenError);
  });

  it('without a secret builds no verifier by default, or one that refuses every token', async () => {
    expect(verifierFromConfig({ ...base })).toBeUndefined();
    expect(verifierSettingsFromConfig({ ...base, AUTH_PROVIDER: 'builtin' })).toBeUndefined();
    const refusing = verifierFromConfig({ ...base, AUTH_PROVIDER: 'builtin' }, { withoutSecret: 'refuse' });
    await expect(refusing.verify('anything')).rejects.toMatchObject({ status: 401, code: 'INVALID_TOKEN' });
    await expect(refusing.verify('anything')).rejects.toBeInstanceOf(UnauthorizedError);
  });
});

describe('verifierFromConfig, external', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...(publicKey.export({ format: 'jwk' }) as object), kid: 'k1', alg: 'RS256', use: 'sig' };
  let server: http.Server;
  let jwksUri: string;
  let fetches = 0;

  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      fetches++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    jwksUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('verifies RS256 tokens against the JWKS with AUTH_ISSUER and AUTH_AUDIENCE, ignoring JWT_SECRET', async () => {
    const config = {
      ...base,
      AUTH_PROVIDER: 'external' as const,
      JWT_SECRET: SECRET,
      AUTH_JWKS_URI: jwksUri,
      AUTH_ISSUER: 'https://idp',
      AUTH_AUDIENCE: 'api',
    };
    expect(verifierSettingsFromConfig({ ...config, AUTH_JWKS_REQUESTS_PER_MINUTE: 5 })).toMatchObject({
      mode: 'external',
      jwksRequestsPerMinute: 5,
    });
    const verifier = verifierFromConfig(config)!;
    const token = jwt.sign(claims, privateKey, {
      algorithm: 'RS256',
      keyid: 'k1',
      issuer: 'https://idp',
      audience: 'api',
      expiresIn: 60,
    });
    await expect(verifier.verify(token)).resolves.toMatchObject({ userId: 'u1', tenantId: 'acme' });
    expect(fetches).toBe(1);
    const hs = jwt.sign(claims, SECRET, {
      algorithm: 'HS256',
      issuer: 'https://idp',
      audience: 'api',
      expiresIn: 60,
    });
    await expect(verifier.verify(hs)).rejects.toBeInstanceOf(InvalidTokenError);
  });
});
