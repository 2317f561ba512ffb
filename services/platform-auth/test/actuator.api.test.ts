import request from 'supertest';
import { HealthRegistry } from '@care/service-kit';
import { aUser, seedUser } from './builders/user.builder';
import { buildApp, openTestDb, TEST_SECRET, type TestApp, type TestDb } from './support/harness';

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
    expect(res.body.git.commit).toMatchObject({ id: '0123456', full: '0123456789abcdef0123456789abcdef01234567' });
  });

  it('lists metric names and answers one metric in Spring shape, filtered by tag', async () => {
    const u = await seedUser(t.db, h.hasher, aUser().build());
    await request(h.app).post('/api/v1/auth/login').send({ email: u.email, password: 'wrong-password' });
    const names = (await request(h.app).get('/actuator/metrics')).body.names as string[];
    expect(names).toEqual(expect.arrayContaining(['auth_login_total', 'auth_refresh_total', 'http_server_requests_seconds', 'process_cpu_user_seconds_total']));
    const failures = await request(h.app).get('/actuator/metrics/auth_login_total?tag=outcome:failure');
    expect(failures.body.measurements).toEqual([{ statistic: 'COUNT', value: 1 }]);
    const http = await request(h.app).get('/actuator/metrics/http_server_requests_seconds');
    expect(http.body.baseUnit).toBe('seconds');
    expect(http.body.measurements.map((m: { statistic: string }) => m.statistic)).toEqual(['COUNT', 'TOTAL_TIME']);
    expect(http.body.availableTags.map((x: { tag: string }) => x.tag)).toEqual(expect.arrayContaining(['method', 'route', 'status']));
    expect((await request(h.app).get('/actuator/metrics/no_such_metric')).status).toBe(404);
    expect((await request(h.app).get('/actuator/metrics/auth_login_total?tag=broken')).status).toBe(400);
  });

  it('exposes Prometheus text', async () => {
    const res = await request(h.app).get('/actuator/prometheus');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toContain('# TYPE auth_login_total counter');
  });

  it('masks every environment and configuration value', async () => {
    const res = await request(h.app).get('/actuator/env');
    expect(res.status).toBe(200);
    expect(res.body.activeProfiles).toEqual(['dev']);
    const sources = res.body.propertySources as Array<{ name: string; properties: Record<string, { value: string }> }>;
    expect(sources.map((s) => s.name)).toEqual(['applicationConfig', 'systemEnvironment']);
    expect(Object.keys(sources[0].properties)).toEqual(expect.arrayContaining(['JWT_SECRET', 'BCRYPT_COST', 'PORT']));
    for (const s of sources) for (const p of Object.values(s.properties)) expect(p).toEqual({ value: '******' });
    expect(res.text).not.toContain(TEST_SECRET);
    expect(res.text).not.toContain('s3cr3t');
    expect((await request(h.app).get('/actuator/env/JWT_SECRET')).body.property).toEqual({ source: 'applicationConfig', value: '******' });
  });

  it('links the endpoints from /actuator', async () => {
    const res = await request(h.app).get('/actuator');
    expect(Object.keys(res.body._links)).toEqual(expect.arrayContaining(['self', 'health', 'health-liveness', 'health-readiness', 'info', 'metrics', 'prometheus', 'env']));
  });
});
