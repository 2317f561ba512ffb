import request from 'supertest';
import { createLogger, createMetrics, HealthRegistry } from '@care/service-kit';
import { createManagementApp } from '../src/app';
import { aUser, seedUser } from './builders/user.builder';
import { buildApp, openTestDb, type TestApp, type TestDb } from './support/harness';
import { signTestToken, TEST_JWT_SECRET } from '@care/service-kit/testing';

const ADMIN = `Bearer ${signTestToken({ sub: 'ops|1', tenantId: 'platform', roles: ['PLATFORM_ADMIN'] })}`;
const TENANT_ADMIN = `Bearer ${signTestToken({ sub: 'ta|1', tenantId: 'acme', roles: ['TENANT_ADMIN'] })}`;

describe('actuator endpoints', () => {
  let t: TestDb;
  let h: TestApp;
  let health: HealthRegistry;
  beforeAll(async () => {
    t = await openTestDb();
    health = new HealthRegistry();
    h = buildApp(t.db, { GIT_COMMIT: '0123456789abcdef0123456789abcdef01234567' }, { health });
  });
  afterAll(() => t.close());

  it('reports health UP with components, without authentication', async () => {
    const res = await request(h.app).get('/actuator/health');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('UP');
    expect(res.body.components.db).toEqual({ status: 'UP', details: { database: 'PGlite' } });
    expect(res.body.components.livenessState.status).toBe('UP');
    expect((await request(h.app).get('/actuator/health/db')).body.status).toBe('UP');
    expect((await request(h.app).get('/actuator/health/nope')).status).toBe(404);
    expect((await request(h.app).get('/actuator/health/toString')).status).toBe(404);
  });

  it('answers 503 DOWN when the database is gone, while liveness stays UP', async () => {
    const gone = await openTestDb();
    const broken = buildApp(gone.db);
    await gone.close();
    const res = await request(broken.app).get('/actuator/health');
    expect(res.status).toBe(503);
    expect(res.body.status).toBe('DOWN');
    expect(res.body.components.db.status).toBe('DOWN');
    expect((await request(broken.app).get('/actuator/health/readiness')).status).toBe(503);
    const live = await request(broken.app).get('/actuator/health/liveness');
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: 'UP' });
  });

  it('turns readiness OUT_OF_SERVICE (503) once draining starts', async () => {
    const drainingHealth = new HealthRegistry();
    const draining = buildApp(t.db, {}, { health: drainingHealth });
    expect((await request(draining.app).get('/actuator/health/readiness')).body).toEqual({ status: 'UP' });
    drainingHealth.setDraining();
    const res = await request(draining.app).get('/actuator/health/readiness');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'OUT_OF_SERVICE' });
    expect((await request(draining.app).get('/actuator/health')).status).toBe(503);
    expect((await request(draining.app).get('/actuator/health/liveness')).status).toBe(200);
  });

  it('shows build and git information', async () => {
    const res = await request(h.app).get('/actuator/info');
    expect(res.status).toBe(200);
    expect(res.body.build).toMatchObject({ name: '@care/platform-auth', artifact: 'platform-auth' });
    expect(res.body.git.commit).toMatchObject({
      id: '0123456',
      full: '0123456789abcdef0123456789abcdef01234567',
    });
  });

  it('lists metric names and answers one metric in Spring shape, filtered by tag', async () => {
    const u = await seedUser(t.db, h.hasher, aUser().build());
    await request(h.app).post('/api/v1/auth/login').send({ email: u.email, password: 'wrong-password' });
    const names = (await request(h.app).get('/actuator/metrics').set('Authorization', ADMIN)).body
      .names as string[];
    expect(names).toEqual(
      expect.arrayContaining([
        'auth_login_total',
        'auth_refresh_total',
        'http_server_requests_seconds',
        'process_cpu_user_seconds_total',
      ]),
    );
    const failures = await request(h.app)
      .get('/actuator/metrics/auth_login_total?tag=outcome:failure')
      .set('Authorization', ADMIN);
    expect(failures.body.measurements).toEqual([{ statistic: 'COUNT', value: 1 }]);
    const http = await request(h.app)
      .get('/actuator/metrics/http_server_requests_seconds')
      .set('Authorization', ADMIN);
    expect(http.body.baseUnit).toBe('seconds');
    expect(http.body.measurements.map((m: { statistic: string }) => m.statistic)).toEqual([
      'COUNT',
      'TOTAL_TIME',
    ]);
    expect(http.body.availableTags.map((x: { tag: string }) => x.tag)).toEqual(
      expect.arrayContaining(['method', 'route', 'status']),
    );
    expect(
      (await request(h.app).get('/actuator/metrics/no_such_metric').set('Authorization', ADMIN)).status,
    ).toBe(404);
    expect(
      (await request(h.app).get('/actuator/metrics/auth_login_total?tag=broken').set('Authorization', ADMIN))
        .status,
    ).toBe(400);
  });

  it('exposes Prometheus text', async () => {
    const res = await request(h.app).get('/actuator/prometheus').set('Authorization', ADMIN);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toContain('# TYPE auth_login_total counter');
  });

  it('masks every environment and configuration value', async () => {
    const res = await request(h.app).get('/actuator/env').set('Authorization', ADMIN);
    expect(res.status).toBe(200);
    expect(res.body.activeProfiles).toEqual(['dev']);
    const sources = res.body.propertySources as Array<{
      name: string;
      properties: Record<string, { value: string }>;
    }>;
    expect(sources.map((s) => s.name)).toEqual(['applicationConfig', 'systemEnvironment']);
    expect(Object.keys(sources[0].properties)).toEqual(
      expect.arrayContaining(['JWT_SECRET', 'BCRYPT_COST', 'PORT']),
    );
    for (const s of sources)
      for (const p of Object.values(s.properties)) expect(p).toEqual({ value: '******' });
    expect(res.text).not.toContain(TEST_JWT_SECRET);
    expect(res.text).not.toContain('s3cr3t');
    expect(
      (await request(h.app).get('/actuator/env/JWT_SECRET').set('Authorization', ADMIN)).body.property,
    ).toEqual({ source: 'applicationConfig', value: '******' });
  });

  it('links the endpoints from /actuator', async () => {
    const res = await request(h.app).get('/actuator');
    expect(Object.keys(res.body._links)).toEqual(
      expect.arrayContaining([
        'self',
        'health',
        'health-liveness',
        'health-readiness',
        'info',
        'metrics',
        'prometheus',
        'env',
      ]),
    );
  });

  it('keeps env, metrics and prometheus closed to anonymous callers (401), bad tokens (401) and non-admins (403)', async () => {
    for (const path of [
      '/actuator/env',
      '/actuator/env/PORT',
      '/actuator/metrics',
      '/actuator/metrics/auth_login_total',
      '/actuator/prometheus',
    ]) {
      const anonymous = await request(h.app).get(path);
      expect({ path, status: anonymous.status }).toEqual({ path, status: 401 });
      expect(anonymous.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(anonymous.text).not.toContain('JWT_SECRET');
      expect((await request(h.app).get(path).set('Authorization', 'Bearer not.a.token')).status).toBe(401);
      expect((await request(h.app).get(path).set('Authorization', TENANT_ADMIN)).status).toBe(403);
      expect((await request(h.app).get(path).set('Authorization', ADMIN)).status).toBe(200);
    }
    expect((await request(h.app).get('/actuator/health/liveness')).status).toBe(200);
    expect((await request(h.app).get('/actuator/info')).status).toBe(200);
  });

  it('answers a prototype key as a metric name with a 400 (no token needed to find out), and "not found" for an admin', async () => {
    expect((await request(h.app).get('/actuator/metrics/__proto__')).status).toBe(400);
    expect((await request(h.app).get('/actuator/metrics/__proto__').set('Authorization', ADMIN)).status).toBe(
      400,
    );
    expect((await request(h.app).get('/actuator/metrics/toString').set('Authorization', ADMIN)).status).toBe(
      404,
    );
    expect(
      (await request(h.app).get('/actuator/metrics/hasOwnProperty').set('Authorization', ADMIN)).status,
    ).toBe(404);
  });

  it('with MANAGEMENT_PORT set, serves env, metrics and prometheus only on the management app, open', async () => {
    const mgmtHealth = new HealthRegistry();
    const metrics = createMetrics('platform-auth-mgmt-test', false);
    const main = buildApp(t.db, { MANAGEMENT_PORT: '0' }, { health: mgmtHealth, metrics });
    for (const path of ['/actuator/env', '/actuator/metrics', '/actuator/prometheus']) {
      expect((await request(main.app).get(path).set('Authorization', ADMIN)).status).toBe(404);
    }
    expect((await request(main.app).get('/actuator/health')).status).toBe(200);
    const mgmt = createManagementApp({
      config: main.config,
      logger: createLogger({ name: 'test', level: 'silent' }),
      db: t.db,
      health: mgmtHealth,
      metrics,
      env: { HOME: '/x' },
    });
    expect((await request(mgmt).get('/actuator/prometheus')).status).toBe(200);
    expect((await request(mgmt).get('/actuator/env')).body.propertySources[1].properties).toEqual({
      HOME: { value: '******' },
    });
    expect((await request(mgmt).get('/actuator/health')).status).toBe(200);
    expect((await request(mgmt).get('/api/v1/users')).status).toBe(404);
  });
});
