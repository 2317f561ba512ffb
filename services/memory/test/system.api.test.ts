import request from 'supertest';
import type { Database } from '@care/db';
import { buildApp, openTestDatabase } from './support/test-app';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const ISO_DURATION = /^P(?:\d+D)?(?:T(?:\d+H)?(?:\d+M)?(?:\d+S)?)?$/;
const MB = /^\d+(\.\d+)? MB$/;

describe('system endpoints', () => {
  it('reports status with the spec fields', async () => {
    const { app, clock } = buildApp(database, {
      env: {
        PORT: '7171',
        LOCAL_LLM_BASE_URL: 'http://127.0.0.1:11434',
        LOCAL_LLM_MODEL: 'nomic-embed-text',
      },
    });
    clock.advance(3725);
    const res = await request(app).get('/api/v1/system/status').expect(200);
    expect(res.body).toEqual({
      status: 'UP',
      version: '9.9.9-test',
      uptime: '1h 2m 5s',
      uptimeSeconds: 3725,
      port: 7171,
      localLlmUrl: 'http://127.0.0.1:11434',
      localLlmModel: 'nomic-embed-text',
    });
  });

  it('reports health with components memory, llm and tools', async () => {
    const { app } = buildApp(database);
    const res = await request(app).get('/api/v1/system/health').expect(200);
    expect(res.body.status).toBe('UP');
    expect(res.body.uptime).toMatch(ISO_DURATION);
    expect(new Date(res.body.timestamp).toISOString()).toBe(res.body.timestamp);
    expect(res.body.components).toEqual({
      memory: { status: 'UP', engine: 'PostgreSQL embedded (PGlite) + pgvector' },
      llm: { status: 'CONFIGURED', model: 'hashing:words-v1-64', baseUrl: 'in-process' },
      tools: { status: 'UP', count: 14 }, // the MCP tool list (test/mcp.api.test.ts checks they agree)
    });
  });

  it('reports metrics with the jvm object filled from the Node runtime and the core object', async () => {
    const { app } = buildApp(database);
    const res = await request(app).get('/api/v1/system/metrics').expect(200);
    expect(res.body.jvm).toEqual({
      version: process.version,
      vendor: `Node.js (V8 ${process.versions.v8})`,
      uptime: expect.stringMatching(ISO_DURATION),
      heap: {
        used: expect.stringMatching(MB),
        max: expect.stringMatching(MB),
        total: expect.stringMatching(MB),
      },
      processors: expect.any(Number),
    });
    expect(res.body.core).toEqual({
      tools: 14,
      memoryEngine: 'PostgreSQL embedded (PGlite) + pgvector',
      llmModel: 'hashing:words-v1-64',
    });
  });
});

describe('API key and CORS', () => {
  const KEY = 'a-very-long-test-api-key-0123456789';

  it('answers 401 without a valid X-API-Key when a key is configured, and serves requests that carry it', async () => {
    const { app } = buildApp(database, { env: { API_KEY: KEY } });
    for (const key of [undefined, '', 'wrong', `${KEY}x`, KEY.slice(0, -1)]) {
      const req = request(app).post('/api/v1/memory/recall').send({ query: 'anything' });
      const res = await (key === undefined ? req : req.set('X-API-Key', key));
      expect([res.status, res.body.code]).toEqual([401, 'INVALID_API_KEY']);
      expect(res.headers['content-type']).toContain('application/problem+json');
    }
    await request(app).get('/api/v1/system/status').expect(401);
    await request(app)
      .post('/api/v1/memory/recall')
      .set('X-API-Key', KEY)
      .send({ query: 'anything' })
      .expect(200);
    await request(app).get('/api/v1/system/status').set('X-API-Key', KEY).expect(200);
  });

  it('leaves the health probe open by default and can protect it too', async () => {
    await request(buildApp(database, { env: { API_KEY: KEY } }).app)
      .get('/api/v1/system/health')
      .expect(200);
    await request(buildApp(database, { env: { API_KEY: KEY, API_KEY_EXEMPT_PATHS: ' ' } }).app)
      .get('/api/v1/system/health')
      .expect(401);
  });

  it('needs no key when none is configured', async () => {
    await request(buildApp(database).app).get('/api/v1/system/status').expect(200);
  });

  it('reflects no origin in prod unless it is listed', async () => {
    const { app } = buildApp(database, { env: { API_KEY: KEY, APP_PROFILES_ACTIVE: 'prod' } });
    const res = await request(app)
      .get('/api/v1/system/status')
      .set('Origin', 'https://evil.example')
      .set('X-API-Key', KEY);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const listed = buildApp(database, {
      env: { API_KEY: KEY, APP_PROFILES_ACTIVE: 'prod', CORS_ALLOWED_ORIGINS: 'https://console.example' },
    }).app;
    const ok = await request(listed)
      .get('/api/v1/system/status')
      .set('Origin', 'https://console.example')
      .set('X-API-Key', KEY);
    expect(ok.headers['access-control-allow-origin']).toBe('https://console.example');
    const other = await request(listed)
      .get('/api/v1/system/status')
      .set('Origin', 'https://evil.example')
      .set('X-API-Key', KEY);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('allows any origin by default in dev, including preflights that carry no key', async () => {
    const { app } = buildApp(database, { env: { API_KEY: KEY } });
    const pre = await request(app)
      .options('/api/v1/memory/recall')
      .set('Origin', 'https://agent.example')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'content-type,x-api-key,x-tenant-id');
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('https://agent.example');
    const res = await request(app)
      .get('/api/v1/system/status')
      .set('Origin', 'https://other.example')
      .set('X-API-Key', KEY);
    expect(res.headers['access-control-allow-origin']).toBe('https://other.example');
  });
});
