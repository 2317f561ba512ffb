// Prometheus metrics of memory (ADR 0012): HTTP RED metrics and recall latency, served on the API port only in the
// dev profile without MANAGEMENT_PORT; liveness that does not touch the database.
import request from 'supertest';
import type { Database } from '@care/db';
import { createMetrics } from '@care/service-kit';
import { buildApp, openTestDatabase } from './support/test-app';

const TENANT = { 'X-Tenant-Id': 'metrics-test' };

/** The value of the sample `name` whose labels include `labels` (any order), or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)\{(.*)\} (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...m[2].matchAll(/([a-z_]+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

describe('memory metrics', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it('counts recalls and HTTP requests by matched route, in the Prometheus text format', async () => {
    const { app } = buildApp(database, { metrics: createMetrics('memory', false) });
    await request(app)
      .post('/api/v1/memory/remember')
      .set(TENANT)
      .send({ text: 'Prefers morning appointments', type: 'SEMANTIC', source: 'USER_STATED' })
      .expect(200);
    await request(app).post('/api/v1/memory/recall').set(TENANT).send({ query: 'appointments' }).expect(200);
    await request(app).post('/api/v1/memory/recall').set(TENANT).send({ query: '' }).expect(400);

    const res = await request(app).get('/actuator/prometheus').expect(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(
      sample(res.text, 'memory_recall_duration_seconds_count', { outcome: 'ok', service: 'memory' }),
    ).toBe(1);
    const route = { method: 'POST', route: '/api/v1/memory/recall', service: 'memory' };
    expect(sample(res.text, 'http_server_requests_seconds_count', { ...route, status: '200' })).toBe(1);
    expect(sample(res.text, 'http_server_requests_seconds_count', { ...route, status: '400' })).toBe(1);
  });

  it('keeps metrics off the API port in prod and when a management port is set', async () => {
    const key = 'k'.repeat(32);
    const envs: Array<Record<string, string>> = [
      { APP_PROFILES_ACTIVE: 'prod', API_KEY: key },
      { MANAGEMENT_PORT: '9464' },
    ];
    for (const env of envs) {
      const { app } = buildApp(database, { env, metrics: createMetrics('memory', false) });
      const headers = env.API_KEY ? { 'X-API-Key': key } : {};
      await request(app).get('/actuator/prometheus').set(headers).expect(404);
    }
  });

  it('answers liveness without the database (and without the API key), while health reports it down', async () => {
    const broken = await openTestDatabase();
    const { app } = buildApp(broken, { env: { API_KEY: 'k'.repeat(32) } });
    await broken.close();
    expect((await request(app).get('/actuator/health/liveness').expect(200)).body).toEqual({ status: 'UP' });
    await request(app).get('/api/v1/system/health').expect(503);
  });
});
