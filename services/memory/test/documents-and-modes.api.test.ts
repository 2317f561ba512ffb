import request from 'supertest';
import type { Database } from '@care/db';
import { aDocument, aMemory } from './builders/memory.builder';
import { HashingEmbeddingProvider } from '../src/embeddings/hashing.provider';
import { buildApp, openTestDatabase } from './support/test-app';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const provider = new HashingEmbeddingProvider(64);
const vectorOf = (text: string) => provider.vector(text);

describe('document ingestion', () => {
  it('stores a document and replaces it when the same id is ingested again (upsert)', async () => {
    const { app } = buildApp(database);
    const t = { 'X-Tenant-Id': 'docs-upsert' };
    const first = await request(app)
      .post('/api/v1/memory')
      .set(t)
      .send(aDocument('guide', 'hand washing guide', vectorOf('hand washing guide'), ['hygiene']));
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      id: 'guide',
      tier: 'documents',
      source: 'DOCUMENT',
      created: true,
      tags: ['hygiene'],
    });
    const second = await request(app)
      .post('/api/v1/memory')
      .set(t)
      .send(aDocument('guide', 'insulin storage guide', vectorOf('insulin storage guide')));
    expect(second.body).toMatchObject({
      id: 'guide',
      created: false,
      text: 'insulin storage guide',
      tags: [],
    });
    const hits = await request(app)
      .post('/api/v1/memory/recall')
      .set(t)
      .send({ query: 'insulin storage', topK: 5 });
    expect(hits.body.results.map((r: { id: string; text: string }) => [r.id, r.text])).toEqual([
      ['guide', 'insulin storage guide'],
    ]);
  });

  it('answers 400 VECTOR_DIMENSION_MISMATCH for a vector of the wrong size and writes nothing', async () => {
    const { app } = buildApp(database);
    const t = { 'X-Tenant-Id': 'docs-dim' };
    for (const size of [63, 65, 512]) {
      const res = await request(app)
        .post('/api/v1/memory')
        .set(t)
        .send(aDocument(`d${size}`, 'text', new Array(size).fill(0.1)));
      expect([res.status, res.body.code, res.body.errors[0].pointer]).toEqual([
        400,
        'VECTOR_DIMENSION_MISMATCH',
        '/vector',
      ]);
    }
    const status = await request(app).get('/api/v1/memory/status').set(t).expect(200);
    expect(status.body.tiers.documents.total).toBe(0);
  });

  it('refuses to overwrite a cognitive memory through ingestion (409) and keeps it', async () => {
    const { app } = buildApp(database);
    const t = { 'X-Tenant-Id': 'docs-clash' };
    await request(app)
      .post('/api/v1/memory/remember')
      .set(t)
      .send(aMemory().withId('shared-id').withText('my knee hurts').build())
      .expect(200);
    const res = await request(app)
      .post('/api/v1/memory')
      .set(t)
      .send(aDocument('shared-id', 'other', vectorOf('other')));
    expect([res.status, res.body.code]).toEqual([409, 'MEMORY_EXISTS']);
    expect((await request(app).get('/api/v1/memory/shared-id').set(t)).body.text).toBe('my knee hurts');
  });
});

describe('operating modes', () => {
  it('answers 404 MODE_DISABLED for memory endpoints in RAG mode while ingestion and system endpoints work', async () => {
    const { app } = buildApp(database, { env: { OPERATING_MODE: 'RAG' } });
    const t = { 'X-Tenant-Id': 'rag' };
    await request(app)
      .post('/api/v1/memory')
      .set(t)
      .send(aDocument('d1', 'fever care at home', vectorOf('fever care at home')))
      .expect(200);
    const calls: Array<[string, string, object | undefined]> = [
      ['post', '/api/v1/memory/remember', aMemory().build()],
      ['post', '/api/v1/memory/recall', { query: 'fever' }],
      ['delete', '/api/v1/memory/d1', undefined],
      ['post', '/api/v1/memory/d1/reinforce', { outcome: 'POSITIVE' }],
      ['post', '/api/v1/memory/d1/suppress', { suppressed: true }],
      ['post', '/api/v1/memory/d1/resolve', undefined],
      ['post', '/api/v1/memory/introspect', { topic: 'fever' }],
      ['post', '/api/v1/memory/reminder', { text: 'x', delaySeconds: 1 }],
      ['post', '/api/v1/memory/scratchpad', { text: 'x' }],
      ['post', '/api/v1/memory/why-not', { memoryId: 'd1', query: 'x' }],
      ['post', '/api/v1/memory/reflect', undefined],
      ['get', '/api/v1/memory/status', undefined],
    ];
    for (const [method, path, body] of calls) {
      const agent = request(app) as unknown as Record<string, (p: string) => request.Test>;
      const res = await agent[method](path).set(t).send(body);
      expect([method, path, res.status, res.body.code]).toEqual([method, path, 404, 'MODE_DISABLED']);
    }
    await request(app).get('/api/v1/system/status').expect(200);
    const metrics = await request(app).get('/api/v1/system/metrics').expect(200);
    expect(metrics.body.core.tools).toBe(0);
  });

  it('leaves documents out of recall in MEMORY mode and includes them in HYBRID mode', async () => {
    const t = { 'X-Tenant-Id': 'modes' };
    const hybrid = buildApp(database).app;
    await request(hybrid)
      .post('/api/v1/memory')
      .set(t)
      .send(aDocument('doc', 'asthma inhaler technique', vectorOf('asthma inhaler technique')))
      .expect(200);
    await request(hybrid)
      .post('/api/v1/memory/remember')
      .set(t)
      .send(aMemory().withId('mem').withText('asthma inhaler at night').build())
      .expect(200);
    const ids = async (app: typeof hybrid) =>
      (await request(app).post('/api/v1/memory/recall').set(t).send({ query: 'asthma inhaler' })).body.results
        .map((r: { id: string }) => r.id)
        .sort();
    expect(await ids(hybrid)).toEqual(['doc', 'mem']);
    const memoryOnly = buildApp(database, { env: { OPERATING_MODE: 'MEMORY' } }).app;
    expect(await ids(memoryOnly)).toEqual(['mem']);
    const why = await request(memoryOnly)
      .post('/api/v1/memory/why-not')
      .set(t)
      .send({ memoryId: 'doc', query: 'asthma inhaler' });
    expect(why.body.reason).toBe('TIER_EXCLUDED');
  });
});

describe('partitions record their embedding space', () => {
  it('answers 409 EMBEDDING_SPACE_MISMATCH when the provider changed after the partition was written', async () => {
    const t = { 'X-Tenant-Id': 'space' };
    await request(buildApp(database).app)
      .post('/api/v1/memory/remember')
      .set(t)
      .send(aMemory().build())
      .expect(200);
    const other = buildApp(database, { embeddings: new HashingEmbeddingProvider(32) }).app;
    for (const [path, body] of [
      ['/api/v1/memory/recall', { query: 'walks' }],
      ['/api/v1/memory/remember', aMemory().build()],
    ] as const) {
      const res = await request(other).post(path).set(t).send(body);
      expect([path, res.status, res.body.code]).toEqual([path, 409, 'EMBEDDING_SPACE_MISMATCH']);
    }
    const fresh = await request(other)
      .post('/api/v1/memory/remember')
      .set('X-Tenant-Id', 'space-32')
      .send(aMemory().build());
    expect(fresh.status).toBe(200);
    const status = await request(other).get('/api/v1/memory/status').set('X-Tenant-Id', 'space-32');
    expect(status.body.partition).toMatchObject({ embeddingModel: 'hashing:words-v1-32', dimension: 32 });
  });
});

describe('remember with occurredAt', () => {
  it('dates an imported episode in the past, which recency then reads', async () => {
    const { app } = buildApp(database);
    const t = { 'X-Tenant-Id': 'occurred' };
    const res = await request(app)
      .post('/api/v1/memory/remember')
      .set(t)
      .send({
        ...aMemory().withId('old').withText('first cardiology visit').build(),
        occurredAt: '2029-01-01T00:00:00Z',
      });
    expect(res.body.createdAt).toBe('2029-01-01T00:00:00.000Z');
    const hit = (await request(app).post('/api/v1/memory/recall').set(t).send({ query: 'cardiology visit' }))
      .body.results[0];
    expect(hit.signals.ageDays).toBe(365);
    const bad = await request(app)
      .post('/api/v1/memory/remember')
      .set(t)
      .send({ ...aMemory().build(), occurredAt: 'last tuesday' });
    expect([bad.status, bad.body.errors[0].pointer]).toEqual([400, '/occurredAt']);
  });
});
