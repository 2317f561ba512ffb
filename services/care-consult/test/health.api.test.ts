import request from 'supertest';
import { check, HealthResponse } from '@care/contracts';
import { openCareConsultDatabase } from '../src/db/open-database';
import type { Database } from '@care/db';
import { createTestContext, type TestContext } from './support/test-app';
import { startFakeServer, type FakeServer } from './support/fake-http';

describe('GET /api/health', () => {
  let database: Database;
  let ollama: FakeServer;
  let memory: FakeServer;
  const contexts: TestContext[] = [];
  const context = async (env: Record<string, string> = {}) => {
    const ctx = await createTestContext({ database, env });
    contexts.push(ctx);
    return ctx;
  };

  beforeAll(async () => {
    database = await openCareConsultDatabase({ uri: 'pglite://memory' });
    ollama = await startFakeServer({
      '/api/tags': () => ({ models: [{ name: 'llama3.2:latest' }, { name: 'nomic-embed-text' }] }),
    });
    memory = await startFakeServer({
      '/api/v1/system/health': () => ({ status: 'UP' }),
      '/slow/api/v1/system/health': () => 'hang',
    });
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await ollama.close();
    await memory.close();
    await database.close();
  });

  it('answers without a token with the HealthResponse fields and counts of active agents and counted skills only', async () => {
    const { app } = await context();
    const res = await request(app).get('/api/health').expect(200);
    expect(check(HealthResponse, res.body).ok).toBe(true);
    // fixture: 7 valid active agents (system, template and 3 broken ones excluded); 2 skills (template and broken excluded)
    expect(res.body.workspace).toMatchObject({ agentsCount: 7, skillsCount: 2 });
    expect(res.body.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(new Date(res.body.timestamp).toISOString()).toBe(res.body.timestamp);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('is degraded, not ok, while the workspace has a broken package', async () => {
    const { app } = await context();
    const res = await request(app).get('/api/health').expect(200);
    expect(res.body.status).toBe('degraded');
    expect(res.body.modelReachable).toBe(true); // the offline engine is the active one
  });

  it('reports a reachable Ollama as connected with its models, probing it once for repeated checks', async () => {
    const { app } = await context({ LOCAL_LLM_BASE_URL: ollama.url, LOCAL_LLM_MODEL: 'llama3.2' });
    const before = ollama.hits.get('/api/tags') ?? 0;
    const first = await request(app).get('/api/health').expect(200);
    await request(app).get('/api/health').expect(200);
    expect(first.body.localLlm).toEqual({
      status: 'connected',
      endpoint: ollama.url,
      reachable: true,
      activeModel: 'llama3.2',
      availableModels: ['llama3.2:latest', 'nomic-embed-text'],
      error: null,
    });
    expect((ollama.hits.get('/api/tags') ?? 0) - before).toBe(1);
  });

  it('reports an unreachable Ollama with a short reason and, when Ollama is the active engine, modelReachable false', async () => {
    const { app } = await context({ LLM_PROVIDER: 'ollama' });
    const res = await request(app).get('/api/health').expect(200);
    expect(res.body.localLlm).toMatchObject({ status: 'unreachable', reachable: false, availableModels: [] });
    expect(res.body.localLlm.error).toBe('connection refused');
    expect(res.body.modelReachable).toBe(false);
    expect(res.body.status).toBe('degraded');
  });

  it('reports no memory backend when MEMORY_BASE_URL is unset, and the memory service and its reachability when set', async () => {
    const none = await request((await context()).app).get('/api/health');
    expect(none.body.memoryBackend).toEqual({ kind: 'none', reachable: false });
    const up = await request((await context({ MEMORY_BASE_URL: memory.url })).app).get('/api/health');
    expect(up.body.memoryBackend).toEqual({ kind: 'memory-service', url: memory.url, reachable: true });
    const slow = await request((await context({ MEMORY_BASE_URL: `${memory.url}/slow` })).app).get(
      '/api/health',
    );
    expect(slow.body.memoryBackend).toMatchObject({ reachable: false });
  });

  it('answers 503 with status error when the database is gone', async () => {
    const own = await openCareConsultDatabase({ uri: 'pglite://memory' });
    const ctx = await createTestContext({ database: own });
    await own.close();
    const res = await request(ctx.app).get('/api/health').expect(503);
    expect(res.body.status).toBe('error');
    await ctx.close();
  });
});
