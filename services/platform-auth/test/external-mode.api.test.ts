import { createHmac, generateKeyPairSync, createPublicKey, randomUUID } from 'node:crypto';
import request from 'supertest';
import jwt from 'jsonwebtoken';
import { listAuthEvents } from '../src/audit/audit.repository';
import { ensureTenant } from '../src/tenants/tenants.repository';
import { buildApp, openTestDb, type TestApp, type TestDb } from './support/harness';
import { startOidcProvider, type OidcProvider } from './support/oidc-provider';
import { signTestToken } from '@care/service-kit/testing';

describe('external identity provider mode (real oidc-provider on loopback)', () => {
  let t: TestDb;
  let idp: OidcProvider;
  let h: TestApp;
  const external = (extra: Record<string, string> = {}) =>
    buildApp(t.db, {
      AUTH_PROVIDER: 'external',
      AUTH_JWKS_URI: idp.jwksUri,
      AUTH_ISSUER: idp.issuer,
      AUTH_AUDIENCE: 'care-platform',
      AUTH_JWKS_REQUESTS_PER_MINUTE: '5',
      ...extra,
    });

  beforeAll(async () => {
    [t, idp] = await Promise.all([openTestDb(), startOidcProvider()]);
    await t.db.withSystem(async (tx) => {
      await ensureTenant(tx, 'acme', 'Acme', new Date());
      await ensureTenant(tx, 'globex', 'Globex', new Date());
      await ensureTenant(tx, 'platform', 'Platform', new Date());
    });
    h = external();
  }, 60000);
  afterAll(async () => {
    await idp.stop();
    await t.close();
  });

  const me = (token: string, app = h.app) =>
    request(app).get('/api/v1/auth/me').set('Authorization', `Bearer ${token}`);
  const docs = async (token: string) =>
    (await request(h.app).get('/api/v1/kb/documents').set('Authorization', `Bearer ${token}`)).body
      .items as Array<{ id: string }>;
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

  it('accepts RS256 and ES256 provider tokens and takes tenant and roles from their claims', async () => {
    const rs = await idp.token('acme-user');
    const res = await me(rs);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ userId: 'acme-user', tenantId: 'acme', roles: ['USER'] });
    expect((await me(await idp.token('acme-admin', { es: true }))).body.roles).toEqual(['TENANT_ADMIN']);
    const created = await request(h.app)
      .post('/api/v1/kb/documents')
      .set('Authorization', `Bearer ${rs}`)
      .send({ title: 'ext', content: 'from the idp' });
    expect(created.status).toBe(201);
    expect(created.body.tenantId).toBe('acme');
  });

  it('rejects HS256 signed with the provider RSA public key, and builtin-style HS256 tokens (401, nothing written)', async () => {
    const real = await idp.token('acme-user');
    const header = jwt.decode(real, { complete: true })!.header;
    const jwks = (await (await fetch(idp.jwksUri)).json()) as { keys: Array<{ kid: string }> };
    const pem = createPublicKey({ key: jwks.keys.find((k) => k.kid === header.kid)!, format: 'jwk' } as never)
      .export({ format: 'pem', type: 'spki' })
      .toString();
    const payload = jwt.decode(real) as Record<string, unknown>;
    const unsigned = `${b64({ alg: 'HS256', typ: 'JWT', kid: header.kid })}.${b64({ ...payload, roles: ['PLATFORM_ADMIN'] })}`;
    const confused = `${unsigned}.${createHmac('sha256', pem).update(unsigned).digest('base64url')}`;
    const before = (await docs(real)).length;
    for (const token of [
      confused,
      signTestToken({ sub: 'x', tenantId: 'acme', roles: ['PLATFORM_ADMIN'] }),
    ]) {
      expect((await me(token)).status).toBe(401);
      expect(
        (
          await request(h.app)
            .post('/api/v1/kb/documents')
            .set('Authorization', `Bearer ${token}`)
            .send({ title: 'x', content: 'y' })
        ).status,
      ).toBe(401);
    }
    expect((await docs(real)).length).toBe(before);
  });

  it.each(['none', 'None', 'nOnE'])('rejects alg %s', async (alg) => {
    const payload = jwt.decode(await idp.token('acme-user')) as Record<string, unknown>;
    expect((await me(`${b64({ alg, typ: 'JWT' })}.${b64(payload)}.`)).status).toBe(401);
  });

  it('rejects tokens without tenantId or roles, tampered payloads, and tokens for another issuer or audience', async () => {
    expect((await me(await idp.token('no-tenant'))).status).toBe(401);
    expect((await me(await idp.token('no-roles'))).status).toBe(401);
    const [head, , sig] = (await idp.token('acme-user')).split('.');
    const forged = b64({ ...(jwt.decode(await idp.token('acme-user')) as object), tenantId: 'globex' });
    expect((await me(`${head}.${forged}.${sig}`)).status).toBe(401);
    const token = await idp.token('acme-user');
    expect((await me(token, external({ AUTH_ISSUER: 'https://other-issuer.example' }).app)).status).toBe(401);
    expect((await me(token, external({ AUTH_AUDIENCE: 'someone-else' }).app)).status).toBe(401);
  });

  it('rejects expired provider tokens', async () => {
    const late = external();
    const token = await idp.token('acme-user');
    late.clock.advance(301);
    expect((await me(token, late.app)).status).toBe(401);
  });

  it('keeps tenant B documents away from tenant A tokens', async () => {
    const b = await idp.token('globex-user');
    const created = await request(h.app)
      .post('/api/v1/kb/documents')
      .set('Authorization', `Bearer ${b}`)
      .send({ title: 'globex', content: 'private' });
    const a = await idp.token('acme-user');
    expect(
      (
        await request(h.app)
          .get(`/api/v1/kb/documents/${created.body.id}`)
          .set('Authorization', `Bearer ${a}`)
      ).status,
    ).toBe(404);
    expect((await docs(a)).map((d) => d.id)).not.toContain(created.body.id);
  });

  it('fetches a rotated key once, then refuses an unknown-kid flood without hammering the JWKS endpoint', async () => {
    const app = external();
    expect((await me(await idp.token('acme-user'), app.app)).status).toBe(200);
    const newKid = await idp.rotate();
    const rotated = await idp.token('acme-user');
    expect(jwt.decode(rotated, { complete: true })!.header.kid).toBe(newKid);
    const hitsBefore = await idp.jwksHits();
    expect((await me(rotated, app.app)).status).toBe(200);
    expect((await me(await idp.token('acme-user'), app.app)).status).toBe(200);
    expect((await idp.jwksHits()) - hitsBefore).toBe(1);

    const attacker = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const flood = await Promise.all(
      Array.from({ length: 40 }, () =>
        me(
          jwt.sign({ sub: 'x', tenantId: 'acme', roles: ['PLATFORM_ADMIN'] }, attacker, {
            algorithm: 'RS256',
            keyid: randomUUID(),
            issuer: idp.issuer,
            audience: 'care-platform',
            expiresIn: 60,
          }),
          app.app,
        ),
      ),
    );
    expect(flood.every((r) => r.status === 401)).toBe(true);
    // Budget of 5 per minute, of which the rotation used 1 and the first token 1.
    expect((await idp.jwksHits()) - hitsBefore).toBeLessThanOrEqual(5);
    expect((await me(await idp.token('acme-user'), app.app)).status).toBe(200);
  });

  it('audits every cross-tenant and system path of an admin whose subject is not a UUID', async () => {
    const sub = 'auth0|5f7c8ec7c33c6c004bbafe82';
    const token = await idp.token(sub);
    const call = (method: 'get' | 'post' | 'patch' | 'delete', path: string, body?: object) => {
      const r = request(h.app)[method](path).set('Authorization', `Bearer ${token}`);
      return body ? r.send(body) : r;
    };
    expect((await me(token)).body).toMatchObject({
      userId: sub,
      tenantId: 'platform',
      roles: ['PLATFORM_ADMIN'],
    });
    const tenant = `ext-${randomUUID().slice(0, 8)}`;
    const run = async (status: number, r: request.Test) => {
      const res = await r;
      expect({ status: res.status, body: res.status >= 400 ? res.body : undefined }).toMatchObject({
        status,
      });
      return res;
    };
    await run(201, call('post', '/api/v1/tenants', { id: tenant, name: 'External' }));
    await run(200, call('get', '/api/v1/tenants'));
    await run(200, call('get', `/api/v1/tenants/${tenant}`));
    await run(200, call('patch', `/api/v1/tenants/${tenant}`, { name: 'External 2' }));
    await run(200, call('get', `/api/v1/tenants/${tenant}/audit-events`));
    const user = await run(
      201,
      call('post', '/api/v1/users', {
        email: `u-${tenant}@example.test`,
        password: 'a-long-password',
        roles: ['USER'],
        tenantId: tenant,
      }),
    );
    await run(200, call('get', `/api/v1/users?tenantId=${tenant}`));
    await run(200, call('get', `/api/v1/users/${user.body.id}?tenantId=${tenant}`));
    await run(200, call('patch', `/api/v1/users/${user.body.id}?tenantId=${tenant}`, { roles: ['VIEWER'] }));
    await run(204, call('delete', `/api/v1/users/${user.body.id}?tenantId=${tenant}`));
    await run(204, call('delete', `/api/v1/tenants/${tenant}`));
    const events = (await t.db.withSystem((tx) => listAuthEvents(tx, { limit: 200 }))).filter(
      (e) => e.userId === sub,
    );
    expect(events.filter((e) => e.type === 'SYSTEM_ACCESS').length).toBeGreaterThanOrEqual(6);
    expect(events.filter((e) => e.type === 'CROSS_TENANT_ACCESS').length).toBeGreaterThanOrEqual(5);
    // A tenant admin with another non-UUID subject works inside its own tenant too.
    const other = await idp.token('waad:00000003-0000-0000-c000-000000000000#x');
    expect((await request(h.app).get('/api/v1/users').set('Authorization', `Bearer ${other}`)).status).toBe(
      200,
    );
  });

  it('answers 404 for the builtin login, refresh and logout endpoints', async () => {
    for (const path of ['/api/v1/auth/login', '/api/v1/auth/refresh', '/api/v1/auth/logout']) {
      const res = await request(h.app)
        .post(path)
        .send(path.endsWith('login') ? { email: 'a@b.c', password: 'p' } : { refreshToken: 'x' });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('BUILTIN_AUTH_DISABLED');
    }
  });
});
