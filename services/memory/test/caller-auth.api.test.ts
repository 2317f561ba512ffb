import request from 'supertest';
import type { Database } from '@care/db';
import { signTestToken, TEST_JWT_SECRET as SECRET } from '@care/service-kit/testing';
import { buildApp, openTestDatabase, TEST_START } from './support/test-app';

const KEY = 'a-very-long-test-api-key-0123456789';
// The test app's clock starts at TEST_START; tokens are issued at that time.
const IAT = TEST_START.getTime() / 1000;
const token = (tenantId: string, extra: Parameters<typeof signTestToken>[1] = {}) =>
  signTestToken({ sub: 'auth0|5f7c8ec7', tenantId, roles: ['USER'], iat: IAT }, extra);

describe('platform bearer tokens on the memory service (ADR 0007)', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  const remember = (app: ReturnType<typeof buildApp>['app'], headers: Record<string, string>, text: string) =>
    request(app)
      .post('/api/v1/memory/remember')
      .set(headers)
      .send({ text, type: 'SEMANTIC', source: 'USER_STATED' });
  const recall = (app: ReturnType<typeof buildApp>['app'], headers: Record<string, string>) =>
    request(app).post('/api/v1/memory/recall').set(headers).send({ query: 'penicillin allergy' });

  it('takes the partition from the token, without any API key, and keeps tenants apart', async () => {
    const { app } = buildApp(database, { env: { JWT_SECRET: SECRET } });
    await remember(app, { Authorization: `Bearer ${token('acme')}` }, 'Allergic to penicillin (acme)').expect(
      200,
    );
    const acme = await recall(app, { Authorization: `Bearer ${token('acme')}` }).expect(200);
    expect(acme.body.results.map((r: { text: string }) => r.text)).toContain('Allergic to penicillin (acme)');
    const globex = await recall(app, { Authorization: `Bearer ${token('globex')}` }).expect(200);
    expect(globex.body.results.map((r: { text: string }) => r.text)).not.toContain(
      'Allergic to penicillin (acme)',
    );
    // The matching header is fine; a disagreeing one is 403 and changes nothing.
    await recall(app, { Authorization: `Bearer ${token('acme')}`, 'X-Tenant-Id': 'acme' }).expect(200);
    const mismatch = await remember(
      app,
      { Authorization: `Bearer ${token('globex')}`, 'X-Tenant-Id': 'acme' },
      'Planted by globex',
    );
    expect([mismatch.status, mismatch.body.code]).toEqual([403, 'TENANT_MISMATCH']);
    const after = await recall(app, { Authorization: `Bearer ${token('acme')}` }).expect(200);
    expect(after.body.results.map((r: { text: string }) => r.text)).not.toContain('Planted by globex');
  });

  it('refuses bad, expired, foreign-key and crit tokens with 401, and anonymous callers when tokens are required', async () => {
    const { app } = buildApp(database, { env: { JWT_SECRET: SECRET } });
    const crit = signTestToken(
      { sub: 's', tenantId: 'acme', roles: ['USER'], iat: IAT },
      { header: { alg: 'HS256', crit: ['x-ext'] } as never },
    );
    const forged = signTestToken(
      { sub: 's', tenantId: 'acme', roles: ['USER'], iat: IAT },
      {},
      'another-secret-of-at-least-thirty-two-b',
    );
    for (const auth of [
      `Bearer ${crit}`,
      `Bearer ${forged}`,
      `Bearer ${token('acme', { expiresIn: -5 })}`,
      'Bearer x.y.z',
      'Basic abc',
    ]) {
      expect({
        auth: auth.slice(0, 12),
        status: (await recall(app, { Authorization: auth })).status,
      }).toEqual({ auth: auth.slice(0, 12), status: 401 });
    }
    expect((await recall(app, { 'X-Tenant-Id': 'acme' })).status).toBe(401);
    await request(app).get('/api/v1/system/health').expect(200);
  });

  it('accepts either the shared key or a token when both are configured', async () => {
    const { app } = buildApp(database, { env: { JWT_SECRET: SECRET, API_KEY: KEY } });
    await recall(app, { 'X-API-Key': KEY, 'X-Tenant-Id': 'acme' }).expect(200);
    await recall(app, { Authorization: `Bearer ${token('acme')}` }).expect(200);
    expect((await recall(app, { 'X-API-Key': 'wrong' })).status).toBe(401);
    // A bad token is 401 even with a good key: a token that was sent is always checked.
    expect((await recall(app, { 'X-API-Key': KEY, Authorization: 'Bearer x.y.z' })).status).toBe(401);
  });
});
