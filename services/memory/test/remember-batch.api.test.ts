import request from 'supertest';
import type { Express } from 'express';
import type { Database } from '@care/db';
import type { AppDeps } from '../src/app';
import { HashingEmbeddingProvider } from '../src/embeddings/hashing.provider';
import { buildApp, openTestDatabase } from './support/test-app';

// Batch remember (ADR 0109): many passages, one model call, one transaction; a retried batch is harmless.

/** Counts the texts and the calls the model sees. */
class CountingProvider extends HashingEmbeddingProvider {
  calls = 0;
  override async embed(texts: string[]): Promise<number[][]> {
    this.calls++;
    return super.embed(texts);
  }
}

let database: Database;
let app: Express;
let deps: AppDeps;
const embeddings = new CountingProvider(64);

beforeAll(async () => {
  database = await openTestDatabase();
  ({ app, deps } = buildApp(database, { embeddings }));
});
afterAll(async () => {
  await deps?.lexicalIndex?.close();
  await database?.close();
});

const partition = 'batch-tenant';
const item = (id: string, text: string) => ({
  id,
  text,
  type: 'SEMANTIC',
  source: 'DOCUMENT',
  tags: ['kb', 'kbdoc:d1'],
});
const batch = (items: object[], tenant = partition) =>
  request(app).post('/api/v1/memory/remember/batch').set('X-Tenant-Id', tenant).send({ items });

describe('POST /api/v1/memory/remember/batch', () => {
  it('stores every item with one model call, recallable like a remembered memory', async () => {
    const before = embeddings.calls;
    const res = await batch([
      item('kb:d1:0', 'Insulin storage. An opened pen keeps 28 days at room temperature.'),
      item('kb:d1:1', 'Insulin storage. Unopened pens belong in the fridge.'),
    ]).expect(200);
    expect(res.body.items).toEqual([
      { id: 'kb:d1:0', outcome: 'created' },
      { id: 'kb:d1:1', outcome: 'created' },
    ]);
    expect(embeddings.calls - before).toBe(1);
    const recalled = await request(app)
      .post('/api/v1/memory/recall')
      .set('X-Tenant-Id', partition)
      .send({ query: 'opened insulin pen room temperature', topK: 2, filter: { tagsAny: ['kb'] } })
      .expect(200);
    expect(recalled.body.results[0]).toMatchObject({
      id: 'kb:d1:0',
      type: 'SEMANTIC',
      source: 'DOCUMENT',
      tags: ['kb', 'kbdoc:d1'],
    });
  });

  it('answers a retried batch with unchanged and stores no duplicate', async () => {
    const res = await batch([
      item('kb:d1:0', 'Insulin storage. An opened pen keeps 28 days at room temperature.'),
      item('kb:d1:2', 'Insulin storage. Do not freeze insulin.'),
    ]).expect(200);
    expect(res.body.items).toEqual([
      { id: 'kb:d1:0', outcome: 'unchanged' },
      { id: 'kb:d1:2', outcome: 'created' },
    ]);
    const status = await request(app).get('/api/v1/memory/kb:d1:0').set('X-Tenant-Id', partition).expect(200);
    expect(status.body.text).toBe('Insulin storage. An opened pen keeps 28 days at room temperature.');
  });

  it('refuses the whole batch with 409 when an id holds another text, storing none of it', async () => {
    const res = await batch([
      item('kb:d2:0', 'A new passage that must not stay.'),
      item('kb:d1:1', 'A different text for a taken id.'),
    ]).expect(409);
    expect(res.headers['content-type']).toMatch(/problem\+json/);
    await request(app).get('/api/v1/memory/kb:d2:0').set('X-Tenant-Id', partition).expect(404);
  });

  it('answers an id repeated within one batch like a retry: same text unchanged, another text 409', async () => {
    const res = await batch([
      item('kb:d6:0', 'Inhaler technique. Breathe out first.'),
      item('kb:d6:0', 'Inhaler technique. Breathe out first.'),
      item('kb:d6:1', 'Inhaler technique. Hold your breath.'),
    ]).expect(200);
    expect(res.body.items).toEqual([
      { id: 'kb:d6:0', outcome: 'created' },
      { id: 'kb:d6:0', outcome: 'unchanged' },
      { id: 'kb:d6:1', outcome: 'created' },
    ]);
    await batch([
      item('kb:d7:0', 'Spacer care. Wash monthly.'),
      item('kb:d7:0', 'Spacer care. Another text.'),
    ]).expect(409);
    await request(app).get('/api/v1/memory/kb:d7:0').set('X-Tenant-Id', partition).expect(404);
  });

  it('answers 400 problems for an empty, oversized or id-less batch, storing nothing', async () => {
    const many = Array.from({ length: 65 }, (_, i) => item(`kb:d3:${i}`, `passage ${i}`));
    for (const items of [
      [],
      many,
      [{ text: 'no id', type: 'SEMANTIC', source: 'DOCUMENT' }],
      [item('bad id!', 'x')],
    ]) {
      const res = await batch(items).expect(400);
      expect(res.headers['content-type']).toMatch(/problem\+json/);
    }
    await request(app).get('/api/v1/memory/kb:d3:0').set('X-Tenant-Id', partition).expect(404);
  });

  it('writes into the caller partition only', async () => {
    await batch([item('kb:d4:0', 'Another tenant passage about asthma inhalers.')], 'other-tenant').expect(
      200,
    );
    await request(app).get('/api/v1/memory/kb:d4:0').set('X-Tenant-Id', partition).expect(404);
  });
});
