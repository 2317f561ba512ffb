import request from 'supertest';
import type { Database } from '@care/db';
import { createLogger } from '@care/service-kit';
import { ReminderScheduler } from '../src/reminders/reminder-scheduler';
import { buildApp, openTestDatabase, testClock } from './support/test-app';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const logger = createLogger({ name: 'test', level: 'silent' });

describe('reminders', () => {
  it('stores a pending reminder, fires it once when due, and it becomes a linked episodic memory', async () => {
    const clock = testClock();
    const { app } = buildApp(database, { clock });
    const t = { 'X-Tenant-Id': 'rem-basic' };
    const created = await request(app)
      .post('/api/v1/memory/reminder')
      .set(t)
      .send({ text: 'call the cardiology clinic', delaySeconds: 60, tags: 'health, calls ,health' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      state: 'PENDING',
      tags: ['health', 'calls'],
      dueAt: '2030-01-01T00:01:00.000Z',
      memoryId: null,
    });
    const scheduler = new ReminderScheduler({ database, clock: clock.now, logger });

    expect(await scheduler.tick()).toBe(0);
    clock.advance(59);
    expect(await scheduler.tick()).toBe(0);
    clock.advance(1);
    expect(await scheduler.tick()).toBe(1);
    expect(await scheduler.tick()).toBe(0);

    const list = await request(app).get('/api/v1/memory/reminders').set(t).expect(200);
    const memoryId = `reminder-${created.body.id}`;
    expect(list.body.reminders).toEqual([
      expect.objectContaining({
        id: created.body.id,
        state: 'FIRED',
        firedAt: '2030-01-01T00:01:00.000Z',
        memoryId,
      }),
    ]);
    const memory = await request(app).get(`/api/v1/memory/${memoryId}`).set(t).expect(200);
    expect(memory.body).toMatchObject({
      text: 'call the cardiology clinic',
      tier: 'episodic',
      type: 'EPISODIC',
      source: 'SYSTEM',
      tags: ['health', 'calls', 'reminder'],
    });
    expect(memory.body.links).toEqual([
      { relation: 'FIRED_FROM', direction: 'outgoing', id: `reminder:${created.body.id}` },
    ]);
    const recall = await request(app)
      .post('/api/v1/memory/recall')
      .set(t)
      .send({ query: 'cardiology clinic' });
    expect(recall.body.results[0].id).toBe(memoryId);
  });

  it('fires each reminder exactly once when two replicas tick concurrently', async () => {
    const clock = testClock();
    const { app } = buildApp(database, { clock });
    const tenants = ['rem-a', 'rem-b'];
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await request(app)
        .post('/api/v1/memory/reminder')
        .set('X-Tenant-Id', tenants[i % 2])
        .send({ text: `reminder number ${i}`, delaySeconds: i % 3 });
      ids.push(res.body.id);
    }
    clock.advance(5);
    const replicas = [1, 2].map(
      () => new ReminderScheduler({ database, clock: clock.now, logger, batchSize: 4 }),
    );
    const fired = await Promise.all([...replicas, ...replicas].map((r) => r.tick()));
    expect(fired.reduce((a, b) => a + b, 0)).toBe(30);
    for (const tenant of tenants) {
      const list = await request(app).get('/api/v1/memory/reminders').set('X-Tenant-Id', tenant);
      expect(list.body.reminders.every((r: { state: string }) => r.state === 'FIRED')).toBe(true);
      const status = await request(app).get('/api/v1/memory/status').set('X-Tenant-Id', tenant);
      expect(status.body.tiers.episodic.total).toBe(15);
      expect(status.body.reminders).toEqual({ pending: 0, fired: 15 });
    }
  });

  it('keeps reminders to their own partition', async () => {
    const { app } = buildApp(database);
    await request(app)
      .post('/api/v1/memory/reminder')
      .set('X-Tenant-Id', 'rem-private')
      .send({ text: 'private', delaySeconds: 10 })
      .expect(200);
    const other = await request(app)
      .get('/api/v1/memory/reminders')
      .set('X-Tenant-Id', 'rem-other')
      .expect(200);
    expect(other.body.reminders).toEqual([]);
  });
});

describe('scratchpad', () => {
  it('writes working-tier entries that expire after their TTL and then leave recall and the list', async () => {
    const clock = testClock();
    const { app } = buildApp(database, { clock });
    const t = { 'X-Tenant-Id': 'scratch' };
    const short = await request(app)
      .post('/api/v1/memory/scratchpad')
      .set(t)
      .send({ text: 'user prefers morning calls', ttlSeconds: 30 });
    expect(short.status).toBe(200);
    expect(short.body).toMatchObject({
      tier: 'working',
      type: 'WORKING',
      state: 'ACTIVE',
      expiresAt: '2030-01-01T00:00:30.000Z',
    });
    const long = await request(app)
      .post('/api/v1/memory/scratchpad')
      .set(t)
      .send({ text: 'morning walk planned' });
    expect(long.body.expiresAt).toBe('2030-01-01T01:00:00.000Z');
    expect((await request(app).get('/api/v1/memory/scratchpad').set(t)).body.entries).toHaveLength(2);

    clock.advance(31);
    const entries = (await request(app).get('/api/v1/memory/scratchpad').set(t)).body.entries;
    expect(entries.map((e: { id: string }) => e.id)).toEqual([long.body.id]);
    const recall = await request(app).post('/api/v1/memory/recall').set(t).send({ query: 'morning calls' });
    expect(recall.body.results.map((r: { id: string }) => r.id)).toEqual([long.body.id]);
    const why = await request(app)
      .post('/api/v1/memory/why-not')
      .set(t)
      .send({ memoryId: short.body.id, query: 'morning calls' });
    expect(why.body.reason).toBe('EXPIRED');
    const change = await request(app).post(`/api/v1/memory/${short.body.id}/resolve`).set(t);
    expect([change.status, change.body.code]).toEqual([409, 'MEMORY_EXPIRED']);
  });
});
