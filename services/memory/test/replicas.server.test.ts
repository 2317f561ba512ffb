// Two replicas on one PostgreSQL server: each has its own connection pool and reminder loop, so the row
// locks (FOR UPDATE SKIP LOCKED) are really contended. Needs TEST_DATABASE_URI and pgvector on that server;
// otherwise skipped with a printed notice (the build machines' PostgreSQL 15 has no pgvector).
import { spawnSync } from 'node:child_process';
import request from 'supertest';
import type { Database } from '@care/db';
import { serverTestUri } from '@care/db/testing';
import { createLogger } from '@care/service-kit';
import { serverEngine } from '@care/service-kit/testing';
import { ReminderScheduler } from '../src/reminders/reminder-scheduler';
import { buildApp, openTestDatabase, testClock } from './support/test-app';

/** Asks the server (synchronously, so jest can decide before collecting) whether pgvector can be installed. */
function serverHasPgvector(uri: string): boolean {
  const script = `const {Client}=require('pg');const c=new Client({connectionString:process.argv[1]});c.connect().then(()=>c.query("select 1 from pg_available_extensions where name='vector'")).then(r=>{console.log(r.rowCount);return c.end()}).catch(()=>{console.log(0);process.exit(0)})`;
  const out = spawnSync(process.execPath, ['-e', script, uri], {
    encoding: 'utf8',
    timeout: 15000,
    cwd: __dirname,
  });
  return out.stdout.trim() === '1';
}

const baseUri = serverTestUri();
const usable = baseUri !== undefined && serverHasPgvector(baseUri);
if (baseUri && !usable)
  console.warn(
    'The PostgreSQL server at TEST_DATABASE_URI has no pgvector: the two-replica server test is skipped',
  );

(usable ? describe : describe.skip)('two replicas on a PostgreSQL server', () => {
  let server: Awaited<ReturnType<ReturnType<typeof serverEngine>['createDatabase']>>;
  let replicas: Database[] = [];
  beforeAll(async () => {
    server = await serverEngine(baseUri!).createDatabase();
    replicas = [await openTestDatabase(server.uri), await openTestDatabase(server.uri)];
  });
  afterAll(async () => {
    for (const r of replicas) await r.close();
    await server?.drop();
  });

  it('fires each reminder exactly once while both replicas tick at the same time', async () => {
    const clock = testClock();
    const [a, b] = replicas.map((db) => buildApp(db, { clock }).app);
    for (let i = 0; i < 40; i++) {
      await request(i % 2 ? a : b)
        .post('/api/v1/memory/reminder')
        .set('X-Tenant-Id', 'replicas')
        .send({ text: `dose ${i}`, delaySeconds: 1 })
        .expect(200);
    }
    clock.advance(2);
    const logger = createLogger({ name: 'test', level: 'silent' });
    const loops = replicas.flatMap((database) =>
      [1, 2].map(() => new ReminderScheduler({ database, clock: clock.now, logger, batchSize: 3 })),
    );
    const fired = await Promise.all(loops.map((l) => l.tick()));
    expect(fired.reduce((x, y) => x + y, 0)).toBe(40);
    const status = await request(a).get('/api/v1/memory/status').set('X-Tenant-Id', 'replicas').expect(200);
    expect(status.body.reminders).toEqual({ pending: 0, fired: 40 });
    expect(status.body.tiers.episodic.total).toBe(40);
  });
});
