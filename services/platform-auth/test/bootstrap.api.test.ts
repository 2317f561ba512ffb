import request from 'supertest';
import { createLogger } from '@care/service-kit';
import { listAuthEvents } from '../src/audit/audit.repository';
import { AuditTrail } from '../src/audit/audit.service';
import { bootstrapAdmin } from '../src/users/bootstrap-admin';
import { buildApp, openTestDb, type TestApp, type TestDb } from './support/harness';
import { describeEachEngine } from '@care/service-kit/testing';

describeEachEngine('first-admin bootstrap', (engine) => {
  let t: TestDb;
  let h: TestApp;
  beforeAll(async () => {
    t = await openTestDb(engine);
    h = buildApp(t.db);
  });
  afterAll(() => t.close());
  const deps = () => ({
    db: t.db,
    hasher: h.hasher,
    audit: new AuditTrail({
      db: t.db,
      logger: createLogger({ name: 't', level: 'silent' }),
      clock: () => new Date(),
    }),
    logger: createLogger({ name: 't', level: 'silent' }),
    clock: () => new Date(),
  });

  it('does nothing without both variables', async () => {
    expect(await bootstrapAdmin(deps(), { email: 'root@example.test', tenantId: 'platform' })).toBe(false);
    expect(
      (await request(h.app).post('/api/v1/auth/login').send({ email: 'root@example.test', password: 'x' }))
        .status,
    ).toBe(401);
  });

  it('creates a PLATFORM_ADMIN in the bootstrap tenant when no user exists, once, and audits it', async () => {
    const created = await Promise.all([
      bootstrapAdmin(deps(), { email: 'Root@Example.test', password: 'root-password', tenantId: 'platform' }),
      bootstrapAdmin(deps(), { email: 'root@example.test', password: 'root-password', tenantId: 'platform' }),
    ]);
    expect(created.filter(Boolean)).toHaveLength(1);
    const login = await request(h.app)
      .post('/api/v1/auth/login')
      .send({ email: 'root@example.test', password: 'root-password' });
    expect(login.status).toBe(200);
    expect(login.body.tenantId).toBe('platform');
    const me = await request(h.app)
      .get('/api/v1/auth/me')
      .set('Authorization', `Bearer ${login.body.idToken}`);
    expect(me.body.roles).toEqual(['PLATFORM_ADMIN']);
    expect(
      (
        await request(h.app).get('/api/v1/tenants').set('Authorization', `Bearer ${login.body.idToken}`)
      ).body.items.map((x: { id: string }) => x.id),
    ).toContain('platform');
    const audit = (await t.db.withSystem((tx) => listAuthEvents(tx, { limit: 50 }))).filter(
      (e) => e.type === 'BOOTSTRAP_ADMIN_CREATED',
    );
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit)).not.toContain('root-password');
  });

  it('does not create another admin once users exist', async () => {
    expect(
      await bootstrapAdmin(deps(), {
        email: 'second@example.test',
        password: 'second-password',
        tenantId: 'platform',
      }),
    ).toBe(false);
  });
});
