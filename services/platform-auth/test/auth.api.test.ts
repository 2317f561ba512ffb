import request from 'supertest';
import jwt from 'jsonwebtoken';
import { listAuthEvents } from '../src/audit/audit.repository';
import { aUser, seedUser } from './builders/user.builder';
import { buildApp, openTestDb, type TestApp, type TestDb } from './support/harness';
import { describeEachEngine, TEST_JWT_SECRET } from '@care/service-kit/testing';

describeEachEngine('auth endpoints', (engine) => {
  let t: TestDb;
  let h: TestApp;
  beforeAll(async () => {
    t = await openTestDb(engine);
    h = buildApp(t.db);
  });
  afterAll(() => t.close());

  const login = (email: string, password: string, app = h.app) =>
    request(app).post('/api/v1/auth/login').send({ email, password });
  const events = async (type: string) =>
    (await t.db.withSystem((tx) => listAuthEvents(tx, { limit: 500 }))).filter((e) => e.type === type);

  it('logs in with email and password and answers the login fields with a verifiable HS256 idToken', async () => {
    const u = await seedUser(t.db, h.hasher, aUser().withRole('TENANT_ADMIN').build());
    const res = await login(u.email.toUpperCase(), u.password);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['idToken', 'refreshToken', 'tenantId']);
    expect(res.body.tenantId).toBe(u.tenantId);
    expect(res.headers['cache-control']).toBe('no-store');
    const decoded = jwt.verify(res.body.idToken, TEST_JWT_SECRET, {
      algorithms: ['HS256'],
      issuer: 'care-platform',
      audience: 'care-platform',
      complete: true,
    });
    expect(decoded.header.alg).toBe('HS256');
    const claims = decoded.payload as jwt.JwtPayload;
    expect(claims).toMatchObject({
      sub: u.id,
      email: u.email,
      tenantId: u.tenantId,
      roles: ['TENANT_ADMIN'],
    });
    expect(claims.exp! - claims.iat!).toBe(900);
    expect(typeof claims.jti).toBe('string');
  });

  it('answers one generic 401 for an unknown email and for a wrong password, and audits both without the password', async () => {
    const u = await seedUser(t.db, h.hasher, aUser().build());
    const wrong = await login(u.email, 'not-the-password');
    const unknown = await login('nobody-here@example.test', 'not-the-password');
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('INVALID_CREDENTIALS');
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    }
    expect(wrong.body.detail).toBe(unknown.body.detail);
    const failed = await events('LOGIN_FAILED');
    expect(failed.map((e) => e.detail.reason)).toEqual(
      expect.arrayContaining(['bad_password', 'unknown_email']),
    );
    expect(JSON.stringify(failed)).not.toContain('not-the-password');
  });

  it('refuses passwords over 72 bytes with 400 before checking anything', async () => {
    const u = await seedUser(t.db, h.hasher, aUser().build());
    const res = await login(u.email, 'é'.repeat(37));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('PASSWORD_TOO_LONG');
    expect((await login(u.email, 'x'.repeat(2000))).status).toBe(400);
  });

  it('rejects unknown fields in the login body', async () => {
    const res = await request(h.app)
      .post('/api/v1/auth/login')
      .send({ email: 'a@b.c', password: 'x', admin: true });
    expect(res.status).toBe(400);
    expect(res.body.errors.length).toBeGreaterThan(0);
  });

  it('rotates refresh tokens: the new pair works, the old token is single use', async () => {
    const u = await seedUser(t.db, h.hasher, aUser().build());
    const first = (await login(u.email, u.password)).body;
    const second = await request(h.app)
      .post('/api/v1/auth/refresh')
      .send({ refreshToken: first.refreshToken });
    expect(second.status).toBe(200);
    expect(second.body.refreshToken).not.toBe(first.refreshToken);
    expect(second.body.tenantId).toBe(u.tenantId);
    expect((jwt.decode(second.body.idToken) as jwt.JwtPayload).sub).toBe(u.id);
    const third = await request(h.app)
      .post('/api/v1/auth/refresh')
      .send({ refreshToken: second.body.refreshToken });
    expect(third.status).toBe(200);
  });

  it('revokes the whole family when a used refresh token is presented again, and audits it', async () => {
    const u = await seedUser(t.db, h.hasher, aUser().build());
    const first = (await login(u.email, u.password)).body;
    const second = (
      await request(h.app).post('/api/v1/auth/refresh').send({ refreshToken: first.refreshToken })
    ).body;
    const replay = await request(h.app)
      .post('/api/v1/auth/refresh')
      .send({ refreshToken: first.refreshToken });
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('INVALID_REFRESH_TOKEN');
    const afterReuse = await request(h.app)
      .post('/api/v1/auth/refresh')
      .send({ refreshToken: second.refreshToken });
    expect(afterReuse.status).toBe(401);
    const reused = (await events('REFRESH_REUSED')).filter((e) => e.userId === u.id);
    expect(reused).toHaveLength(1);
    expect(JSON.stringify(reused)).not.toContain(first.refreshToken);
  });

  it('lets exactly one of several concurrent refreshes of one token succeed', async () => {
    const u = await seedUser(t.db, h.hasher, aUser().build());
    const { refreshToken } = (await login(u.email, u.password)).body;
    const results = await Promise.all(
      Array.from({ length: 6 }, () => request(h.app).post('/api/v1/auth/refresh').send({ refreshToken })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 401)).toHaveLength(5);
  });

  it('refuses expired, tampered and malformed refresh tokens', async () => {
    const u = await seedUser(t.db, h.hasher, aUser().build());
    const { refreshToken } = (await login(u.email, u.password)).body;
    const tampered = `${Buffer.from('other').toString('base64url')}.${refreshToken.split('.')[1]}`;
    for (const bad of [tampered, 'garbage', `${refreshToken}x`]) {
      expect((await request(h.app).post('/api/v1/auth/refresh').send({ refreshToken: bad })).status).toBe(
        401,
      );
    }
    h.clock.advance(31 * 24 * 3600);
    expect((await request(h.app).post('/api/v1/auth/refresh').send({ refreshToken })).status).toBe(401);
    h.clock.advance(-31 * 24 * 3600);
  });

  it('refreshes and logs in even when a stale access token is sent along', async () => {
    const u = await seedUser(t.db, h.hasher, aUser().build());
    const first = (await login(u.email, u.password)).body;
    h.clock.advance(901);
    const refreshed = await request(h.app)
      .post('/api/v1/auth/refresh')
      .set('Authorization', `Bearer ${first.idToken}`)
      .send({ refreshToken: first.refreshToken });
    expect(refreshed.status).toBe(200);
    expect(
      (
        await request(h.app)
          .post('/api/v1/auth/login')
          .set('Authorization', 'Bearer garbage')
          .send({ email: u.email, password: u.password })
      ).status,
    ).toBe(200);
    const me = await request(h.app).get('/api/v1/auth/me').set('Authorization', `Bearer ${first.idToken}`);
    expect(me.status).toBe(401);
    expect(me.body.code).toBe('INVALID_TOKEN');
    expect(me.headers['www-authenticate']).toMatch(/invalid_token/);
    h.clock.advance(-901);
  });

  it('logs out by revoking the family, answering 204 also for unknown tokens', async () => {
    const u = await seedUser(t.db, h.hasher, aUser().build());
    const { refreshToken } = (await login(u.email, u.password)).body;
    expect((await request(h.app).post('/api/v1/auth/logout').send({ refreshToken })).status).toBe(204);
    expect((await request(h.app).post('/api/v1/auth/refresh').send({ refreshToken })).status).toBe(401);
    expect(
      (await request(h.app).post('/api/v1/auth/logout').send({ refreshToken: 'unknown.token' })).status,
    ).toBe(204);
    expect((await events('LOGOUT')).some((e) => e.userId === u.id)).toBe(true);
  });

  it('answers /auth/me from the token and 401 without one', async () => {
    const u = await seedUser(t.db, h.hasher, aUser().withRole('VIEWER').build());
    const { idToken } = (await login(u.email, u.password)).body;
    const me = await request(h.app).get('/api/v1/auth/me').set('Authorization', `Bearer ${idToken}`);
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      userId: u.id,
      email: u.email,
      tenantId: u.tenantId,
      roles: ['VIEWER'],
      scopes: ['chat:read', 'workflow:read', 'kb:read', 'config:read'],
    });
    const anon = await request(h.app).get('/api/v1/auth/me');
    expect(anon.status).toBe(401);
    expect(anon.headers['www-authenticate']).toBe('Bearer');
  });

  it('audits successful logins with tenant and user, never the password', async () => {
    const u = await seedUser(t.db, h.hasher, aUser().build());
    await login(u.email, u.password);
    const ok = (await events('LOGIN_SUCCEEDED')).filter((e) => e.userId === u.id);
    expect(ok).toHaveLength(1);
    expect(ok[0]).toMatchObject({ tenantId: u.tenantId, email: u.email });
    expect(JSON.stringify(ok)).not.toContain(u.password);
  });
});
