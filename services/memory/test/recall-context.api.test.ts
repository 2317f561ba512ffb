// The conversation-context stage of recall (ADR 0315), through the HTTP API over a real PGlite: the case also runs
// with the stage off and must then come out differently.
import request from 'supertest';
import { sql } from 'drizzle-orm';
import type { Express } from 'express';
import type { Database } from '@care/db';
import { createLogger } from '@care/service-kit';
import { createApp } from '../src/app';
import { VectorIndexes } from '../src/db/vector-index';
import { HashingEmbeddingProvider } from '../src/embeddings/hashing.provider';
import { buildApp, openTestDatabase, testConfig, testClock } from './support/test-app';

let database: Database;
let app: Express;
let noContext: Express;
let sqlPath: Express;
const T0 = new Date('2029-06-01T18:00:00Z').getTime();
const MINUTE = 60_000;

beforeAll(async () => {
  database = await openTestDatabase();
  const embeddings = new HashingEmbeddingProvider(512);
  app = buildApp(database, { embeddings, fusion: { contextWeight: 0.5 } }).app;
  // The default: the stage is off.
  noContext = buildApp(database, { embeddings }).app;
  // The same stage with the full-text half in SQL (no in-process index), as on a PostgreSQL server.
  sqlPath = createApp({
    config: testConfig(),
    logger: createLogger({ name: 'memory-test', level: 'silent' }),
    database,
    embeddings,
    clock: testClock().now,
    indexes: new VectorIndexes(database.db),
    fusion: { contextWeight: 0.5 },
    lexicalIndex: null,
  });
});
afterAll(async () => {
  await database?.close();
});

async function remember(partition: string, id: string, text: string, at: number): Promise<void> {
  const res = await request(app)
    .post('/api/v1/memory/remember')
    .set('X-Tenant-Id', partition)
    .send({ id, text, type: 'EPISODIC', source: 'USER_STATED', occurredAt: new Date(at).toISOString() });
  expect(res.status).toBe(200);
}

async function recall(on: Express, partition: string, query: string, topK: number) {
  const res = await request(on)
    .post('/api/v1/memory/recall')
    .set('X-Tenant-Id', partition)
    .send({ query, topK });
  expect(res.status).toBe(200);
  return res.body.results as Array<{ id: string; signals: { context: number | null } }>;
}

describe('conversation context in recall (ADR 0315)', () => {
  it('brings the reply written just after a strong match into the top K, only within the window', async () => {
    const p = 'context';
    await remember(p, 'match', 'Asha wore the little fox outfit to the party', T0);
    await remember(p, 'reply', 'A gift from Femi, she has great taste', T0 + MINUTE);
    await remember(p, 'late', 'Femi is coming over for dinner sometime soon', T0 + 3 * 60 * MINUTE);
    for (let i = 0; i < 8; i++)
      await remember(
        p,
        `d${i}`,
        `the ${['garden', 'kitchen', 'car', 'shed'][i % 4]} needs work ${i}`,
        T0 - (i + 1) * 86_400_000,
      );
    const query = 'who gave Asha the little fox outfit';
    const on = await recall(app, p, query, 3);
    const off = await recall(noContext, p, query, 3);
    expect(on.map((r) => r.id).slice(0, 2)).toEqual(['match', 'reply']);
    expect(on[1].signals.context).toBeGreaterThan(0.3);
    expect(off.map((r) => r.id)).not.toContain('reply');
    const viaSql = await recall(sqlPath, p, query, 3);
    expect(viaSql.map((r) => [r.id, r.signals.context])).toEqual(on.map((r) => [r.id, r.signals.context]));
    // Written three hours later: not a neighbour of the match, so no context.
    const all = await recall(app, p, query, 20);
    expect(all.find((r) => r.id === 'late')?.signals.context ?? null).toBeNull();
  });

  it('runs the neighbour look-up as a statement prepared once per session (ADR 0321), with the same results', async () => {
    const p = 'context-prepared';
    await remember(p, 'match', 'Jonah stopped the naproxen seven days before the operation', T0);
    await remember(p, 'reply', 'Good, the surgeon was strict about that', T0 + MINUTE);
    await remember(p, 'other', 'The garden needs weeding before the summer', T0 - 86_400_000);
    const query = 'when did Jonah stop the naproxen';
    const first = await recall(app, p, query, 3);
    const prepared = await database.withSystem(async (tx) => {
      const r = await tx.execute<{ name: string }>(
        sql`select name from pg_prepared_statements where name like 'care_memory_neighbours_%'`,
      );
      return r.rows.map((x) => x.name);
    });
    expect(prepared).toEqual(['care_memory_neighbours_512']);
    // Executed again by name, and equal to the bound-values statement of the SQL path.
    const again = await recall(app, p, query, 3);
    const viaSql = await recall(sqlPath, p, query, 3);
    const signals = (rs: typeof first) => rs.map((r) => [r.id, r.signals.context]);
    expect(signals(again)).toEqual(signals(first));
    expect(signals(viaSql)).toEqual(signals(first));
    expect(first.find((r) => r.id === 'reply')?.signals.context).toBeGreaterThan(0);
  });
});
