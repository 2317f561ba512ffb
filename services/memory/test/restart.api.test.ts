import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createLogger } from '@care/service-kit';
import { ReminderScheduler } from '../src/reminders/reminder-scheduler';
import { aDocument, aMemory } from './builders/memory.builder';
import { HashingEmbeddingProvider } from '../src/embeddings/hashing.provider';
import { buildApp, openFileDatabase, testClock } from './support/test-app';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'care-memory-restart-'));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('restart on the file-backed embedded database', () => {
  it('keeps memories, documents, reminders and scratchpad entries across a process restart, and fires the reminder afterwards', async () => {
    const dataDir = path.join(dir, 'pgdata');
    const clock = testClock();
    const t = { 'X-Tenant-Id': 'restart' };

    const first = await openFileDatabase(dataDir);
    const before = buildApp(first, { clock }).app;
    await request(before)
      .post('/api/v1/memory/remember')
      .set(t)
      .send(aMemory().withId('kept').withText('allergic to penicillin').build())
      .expect(200);
    await request(before)
      .post('/api/v1/memory')
      .set(t)
      .send(
        aDocument(
          'leaflet',
          'penicillin allergy leaflet',
          new HashingEmbeddingProvider(64).vector('penicillin allergy leaflet'),
        ),
      )
      .expect(200);
    await request(before).post('/api/v1/memory/kept/suppress').set(t).send({ suppressed: true }).expect(200);
    await request(before).post('/api/v1/memory/kept/suppress').set(t).send({ suppressed: false }).expect(200);
    await request(before)
      .post('/api/v1/memory/kept/reinforce')
      .set(t)
      .send({ outcome: 'POSITIVE' })
      .expect(200);
    const reminder = (
      await request(before)
        .post('/api/v1/memory/reminder')
        .set(t)
        .send({ text: 'renew the prescription', delaySeconds: 120 })
    ).body;
    const note = (
      await request(before)
        .post('/api/v1/memory/scratchpad')
        .set(t)
        .send({ text: 'ask about the rash', ttlSeconds: 3600 })
    ).body;
    const strength = (await request(before).get('/api/v1/memory/kept').set(t)).body.strength;
    await first.close();

    const second = await openFileDatabase(dataDir);
    try {
      const after = buildApp(second, { clock }).app;
      const kept = (await request(after).get('/api/v1/memory/kept').set(t).expect(200)).body;
      expect(kept).toMatchObject({
        text: 'allergic to penicillin',
        state: 'ACTIVE',
        strength,
        reinforcement: { positive: 1, negative: 0 },
      });
      const recall = await request(after)
        .post('/api/v1/memory/recall')
        .set(t)
        .send({ query: 'penicillin allergy' })
        .expect(200);
      expect(recall.body.results.map((r: { id: string }) => r.id).sort()).toEqual(
        ['kept', 'leaflet', note.id].sort(),
      );
      expect(
        (await request(after).get('/api/v1/memory/scratchpad').set(t)).body.entries.map(
          (e: { id: string }) => e.id,
        ),
      ).toEqual([note.id]);
      const reminders = (await request(after).get('/api/v1/memory/reminders').set(t)).body.reminders;
      expect(reminders).toEqual([expect.objectContaining({ id: reminder.id, state: 'PENDING' })]);
      const status = (await request(after).get('/api/v1/memory/status').set(t)).body;
      expect(status.persistence).toMatchObject({ engine: 'pglite', durable: true });

      clock.advance(121);
      const fired = await new ReminderScheduler({
        database: second,
        clock: clock.now,
        logger: createLogger({ name: 't', level: 'silent' }),
      }).tick();
      expect(fired).toBe(1);
      await request(after).get(`/api/v1/memory/reminder-${reminder.id}`).set(t).expect(200);
    } finally {
      await second.close();
    }
  });
});
