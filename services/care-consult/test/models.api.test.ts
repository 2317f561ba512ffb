import request from 'supertest';
import type { Database } from '@care/db';
import { openCareConsultDatabase } from '../src/db/open-database';
import { aUser } from './builders/user.builder';
import { startFakeServer, type FakeServer } from './support/fake-http';
import { createTestContext, type TestContext } from './support/test-app';

describe('GET /api/models', () => {
  let database: Database;
  let providers: FakeServer;
  const contexts: TestContext[] = [];
  const models = async (env: Record<string, string>) => {
    const ctx = await createTestContext({ database, env });
    contexts.push(ctx);
    return request(ctx.app).get('/api/models').set('Authorization', `Bearer ${aUser().token()}`).expect(200);
  };

  beforeAll(async () => {
    database = await openCareConsultDatabase({ uri: 'pglite://memory' });
    providers = await startFakeServer({
      '/v1/models': (req) =>
        req.headers.authorization === 'Bearer sk-test'
          ? { data: [{ id: 'gpt-4o-mini' }, { id: 'gpt-4o' }] }
          : 'hang',
      '/anthropic/v1/models': (req) =>
        req.headers['x-api-key'] === 'ak-test' ? { data: [{ id: 'claude-3-5-haiku-latest' }] } : 'hang',
      '/api/tags': () => ({ models: [{ name: 'llama3.2:latest' }] }),
    });
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await providers.close();
    await database.close();
  });

  it('marks the built-in offline engine active when no key is configured, and does not probe unconfigured providers', async () => {
    const before = providers.hits.get('/v1/models') ?? 0;
    const res = await models({});
    expect(res.body.active).toEqual({ provider: 'offline', model: 'care-offline-skills' });
    const offline = res.body.providers.find((p: { id: string }) => p.id === 'offline');
    expect(offline).toMatchObject({
      active: true,
      offline: true,
      reachable: true,
      models: ['care-offline-skills'],
    });
    const openai = res.body.providers.find((p: { id: string }) => p.id === 'openai');
    expect(openai).toMatchObject({ configured: false, active: false, reachable: null, models: [] });
    expect(providers.hits.get('/v1/models') ?? 0).toBe(before);
  });

  it('lists the models each configured provider reports, with its key, and picks OpenAI when its key is set', async () => {
    const res = await models({
      LLM_API_KEY: 'sk-test',
      LLM_BASE_URL: `${providers.url}/v1`,
      ALT_LLM_API_KEY: 'ak-test',
      ALT_LLM_BASE_URL: `${providers.url}/anthropic`,
      LOCAL_LLM_BASE_URL: providers.url,
    });
    expect(res.body.active).toEqual({ provider: 'openai', model: 'gpt-4o-mini' });
    const byId = Object.fromEntries(res.body.providers.map((p: { id: string }) => [p.id, p]));
    expect(byId.openai).toMatchObject({
      configured: true,
      active: true,
      reachable: true,
      models: ['gpt-4o-mini', 'gpt-4o'],
    });
    expect(byId.anthropic).toMatchObject({
      configured: true,
      active: false,
      reachable: true,
      models: ['claude-3-5-haiku-latest'],
    });
    expect(byId.ollama).toMatchObject({ reachable: true, models: ['llama3.2:latest'] });
    expect(JSON.stringify(res.body)).not.toMatch(/sk-test|ak-test/);
  });

  it('reports a provider that does not answer in time as unreachable instead of hanging', async () => {
    const res = await models({
      LLM_PROVIDER: 'openai',
      LLM_API_KEY: 'sk-wrong',
      LLM_BASE_URL: `${providers.url}/v1`,
    });
    const openai = res.body.providers.find((p: { id: string }) => p.id === 'openai');
    expect(openai).toMatchObject({ active: true, reachable: false, error: 'no answer within 300 ms' });
  });

  it('requires a token', async () => {
    const ctx = await createTestContext({ database });
    contexts.push(ctx);
    await request(ctx.app).get('/api/models').expect(401);
  });
});
