import request from 'supertest';
import type { Express } from 'express';
import type { Database } from '@care/db';
import { createLogger } from '@care/service-kit';
import { ReflectScheduler } from '../src/reflect/reflect-scheduler';
import { aDocument, aMemory } from './builders/memory.builder';
import { HashingEmbeddingProvider } from '../src/embeddings/hashing.provider';
import { buildApp, openTestDatabase, testClock } from './support/test-app';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const env = {
  REFLECT_MERGE_SIMILARITY: '0.99',
  REFLECT_PROMOTE_SIMILARITY: '0.6',
  REFLECT_PROMOTE_MIN_COUNT: '3',
};
const DAY = 86400;

async function remember(app: Express, t: string, body: object): Promise<void> {
  await request(app).post('/api/v1/memory/remember').set('X-Tenant-Id', t).send(body).expect(200);
}

describe('reflect', () => {
  it('merges near-duplicates into the oldest, which keeps a link to each and gains strength', async () => {
    const clock = testClock();
    const { app } = buildApp(database, { clock, env });
    const t = 'merge';
    await remember(
      app,
      t,
      aMemory().withId('first').withText('daughter visits on sunday').withTags('family').build(),
    );
    clock.advance(60);
    await remember(
      app,
      t,
      aMemory().withId('second').withText('Daughter visits on Sunday!').withTags('visits').build(),
    );
    await remember(app, t, aMemory().withId('unrelated').withText('knee pain after swimming').build());
    const report = (await request(app).post('/api/v1/memory/reflect').set('X-Tenant-Id', t).expect(200)).body;
    expect(report.merged).toEqual([{ survivorId: 'first', mergedIds: ['second'] }]);
    expect(report.promoted).toEqual([]);
    const survivor = (await request(app).get('/api/v1/memory/first').set('X-Tenant-Id', t)).body;
    expect(survivor.strength).toBeGreaterThan(0.5);
    expect(survivor.tags.sort()).toEqual(['family', 'visits']);
    expect(survivor.links).toEqual([{ relation: 'MERGED_FROM', direction: 'outgoing', id: 'second' }]);
    const merged = (await request(app).get('/api/v1/memory/second').set('X-Tenant-Id', t)).body;
    expect(merged).toMatchObject({ state: 'MERGED', mergedInto: 'first' });
    const recall = await request(app)
      .post('/api/v1/memory/recall')
      .set('X-Tenant-Id', t)
      .send({ query: 'daughter sunday' });
    expect(recall.body.results.map((r: { id: string }) => r.id)).toEqual(['first', 'unrelated']);
    const why = await request(app)
      .post('/api/v1/memory/why-not')
      .set('X-Tenant-Id', t)
      .send({ memoryId: 'second', query: 'daughter sunday' });
    expect(why.body.reason).toBe('MERGED');
    const op = await request(app)
      .post('/api/v1/memory/second/reinforce')
      .set('X-Tenant-Id', t)
      .send({ outcome: 'POSITIVE' });
    expect([op.status, op.body.code, op.body.mergedInto]).toEqual([409, 'MEMORY_MERGED', 'first']);
  });

  it('promotes repeated episodes to a semantic memory that links its sources, once', async () => {
    const { app } = buildApp(database, { env });
    const t = 'promote';
    const texts = [
      'morning walk in the park with the dog today',
      'morning walk in the park with the dog again',
      'morning walk in the park with the dog on sunday',
    ];
    for (let i = 0; i < texts.length; i++)
      await remember(app, t, aMemory().withId(`walk-${i}`).withText(texts[i]).withTags('exercise').build());
    await remember(app, t, aMemory().withId('other').withText('pharmacy closes at six').build());
    const report = (await request(app).post('/api/v1/memory/reflect').set('X-Tenant-Id', t).expect(200)).body;
    expect(report.promoted).toHaveLength(1);
    const { semanticId, sourceIds } = report.promoted[0];
    expect([...sourceIds].sort()).toEqual(['walk-0', 'walk-1', 'walk-2']);
    const semantic = (await request(app).get(`/api/v1/memory/${semanticId}`).set('X-Tenant-Id', t)).body;
    expect(semantic).toMatchObject({ tier: 'semantic', type: 'SEMANTIC', source: 'SYSTEM', state: 'ACTIVE' });
    expect(texts).toContain(semantic.text);
    expect(semantic.tags.sort()).toEqual(['consolidated', 'exercise']);
    expect(
      semantic.links.map((l: { relation: string; id: string }) => `${l.relation}:${l.id}`).sort(),
    ).toEqual(['DERIVED_FROM:walk-0', 'DERIVED_FROM:walk-1', 'DERIVED_FROM:walk-2']);
    const source = (await request(app).get('/api/v1/memory/walk-1').set('X-Tenant-Id', t)).body;
    expect(source).toMatchObject({ state: 'ACTIVE', consolidatedInto: semanticId });
    expect(source.links).toEqual([{ relation: 'DERIVED_FROM', direction: 'incoming', id: semanticId }]);
    const again = (
      await request(app).post('/api/v1/memory/reflect').set('X-Tenant-Id', t).send({}).expect(200)
    ).body;
    expect(again.promoted).toEqual([]);
    const status = (await request(app).get('/api/v1/memory/status').set('X-Tenant-Id', t)).body;
    expect(status.partition.lastReflectAt).not.toBeNull();
    expect(status.tiers.semantic.active).toBe(1);
  });

  it('decays weak memories nobody recalled for a month, at most once a day, and reports it', async () => {
    const clock = testClock();
    const { app } = buildApp(database, { clock, env });
    const t = 'decay';
    await remember(app, t, aMemory().withId('idle').withText('old note about the garden').build());
    await remember(app, t, aMemory().withId('used').withText('insulin pen in the fridge').build());
    await remember(app, t, aMemory().withId('strong').withText('nurse name is Ada').build());
    await request(app)
      .post('/api/v1/memory/strong/reinforce')
      .set('X-Tenant-Id', t)
      .send({ outcome: 'POSITIVE' })
      .expect(200);
    await request(app)
      .post('/api/v1/memory')
      .set('X-Tenant-Id', t)
      .send(aDocument('doc', 'garden leaflet', new HashingEmbeddingProvider(64).vector('garden leaflet')))
      .expect(200);
    clock.advance(29 * DAY);
    await request(app)
      .post('/api/v1/memory/recall')
      .set('X-Tenant-Id', t)
      .send({ query: 'insulin fridge', topK: 1 })
      .expect(200);
    clock.advance(2 * DAY);
    const report = (await request(app).post('/api/v1/memory/reflect').set('X-Tenant-Id', t)).body;
    expect(report.decayed).toEqual([{ id: 'idle', from: 0.5, to: 0.45 }]);
    expect((await request(app).get('/api/v1/memory/idle').set('X-Tenant-Id', t)).body.strength).toBeCloseTo(
      0.45,
      10,
    );
    expect((await request(app).post('/api/v1/memory/reflect').set('X-Tenant-Id', t)).body.decayed).toEqual(
      [],
    );
    clock.advance(DAY + 1);
    expect(
      (await request(app).post('/api/v1/memory/reflect').set('X-Tenant-Id', t)).body.decayed.map(
        (d: { id: string }) => d.id,
      ),
    ).toEqual(['idle']);
  });

  it('purges expired scratchpad entries and reports them', async () => {
    const clock = testClock();
    const { app } = buildApp(database, { clock, env });
    const t = 'purge';
    const note = await request(app)
      .post('/api/v1/memory/scratchpad')
      .set('X-Tenant-Id', t)
      .send({ text: 'temporary plan', ttlSeconds: 10 });
    clock.advance(11);
    const report = (await request(app).post('/api/v1/memory/reflect').set('X-Tenant-Id', t)).body;
    expect(report.expired).toEqual([note.body.id]);
    await request(app).get(`/api/v1/memory/${note.body.id}`).set('X-Tenant-Id', t).expect(404);
  });

  it('runs periodically over every partition that is due, and not again within half the interval', async () => {
    const clock = testClock();
    const { app, deps } = buildApp(database, { clock, env });
    await remember(app, 'periodic-1', aMemory().build());
    await remember(app, 'periodic-2', aMemory().build());
    const scheduler = new ReflectScheduler({
      database,
      reflect: deps.reflect,
      clock: clock.now,
      logger: createLogger({ name: 't', level: 'silent' }),
      intervalSeconds: 3600,
    });
    expect(await scheduler.runOnce()).toBeGreaterThanOrEqual(2);
    clock.advance(1000);
    expect(await scheduler.runOnce()).toBe(0);
    clock.advance(1000);
    expect(await scheduler.runOnce()).toBeGreaterThanOrEqual(2);
    const status = (await request(app).get('/api/v1/memory/status').set('X-Tenant-Id', 'periodic-1')).body;
    expect(status.partition.lastReflectAt).toBe(clock.now().toISOString());
  });
});

describe('introspect', () => {
  it('counts related memories and documents by tier and type, with freshness, strength, unresolved items and confidence', async () => {
    const clock = testClock();
    const { app } = buildApp(database, { clock });
    const t = 'introspect';
    const vec = (s: string) => new HashingEmbeddingProvider(64).vector(s);
    await remember(app, t, aMemory().withId('e1').withText('insulin dose was missed on monday').build());
    clock.advance(DAY);
    await remember(app, t, aMemory().withId('e2').withText('asked the nurse about insulin storage').build());
    await remember(app, t, aMemory().withId('s1').semantic().withText('insulin must be kept cool').build());
    await request(app)
      .post('/api/v1/memory')
      .set('X-Tenant-Id', t)
      .send(aDocument('d1', 'insulin storage leaflet', vec('insulin storage leaflet')))
      .expect(200);
    await remember(app, t, aMemory().withId('x1').withText('the football match was a draw').build());
    await request(app).post('/api/v1/memory/e1/resolve').set('X-Tenant-Id', t).expect(200);
    clock.advance(DAY);
    const res = await request(app)
      .post('/api/v1/memory/introspect')
      .set('X-Tenant-Id', t)
      .send({ topic: 'insulin storage' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      topic: 'insulin storage',
      related: 4,
      memories: 3,
      documents: 1,
      byTier: { working: 0, episodic: 2, semantic: 1, documents: 1 },
      byType: { EPISODIC: 2, SEMANTIC: 2 },
      freshness: { newest: '2030-01-02T00:00:00.000Z', oldest: '2030-01-01T00:00:00.000Z' },
      strength: { average: 0.5, min: 0.5, max: 0.5 },
      confidence: 'MEDIUM',
    });
    expect(res.body.unresolved.items.map((i: { id: string }) => i.id).sort()).toEqual(['e2', 's1']);
    const none = await request(app)
      .post('/api/v1/memory/introspect')
      .set('X-Tenant-Id', 'introspect-empty')
      .send({ topic: 'insulin' });
    expect(none.body).toMatchObject({ related: 0, confidence: 'NONE' });
  });
});
