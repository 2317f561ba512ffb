import type { Database } from '@care/db';
import { openCareConsultDatabase } from '../../src/db/database';
import { ThreadsService, type TurnRecord } from '../../src/threads/threads.service';

const record = (status: TurnRecord['status']): TurnRecord => ({
  agentId: 'sleep-coach',
  status,
  provider: 'offline',
  model: 'm',
  messages: [{ role: 'user', content: 'q' }],
  toolCalls: [],
  suggestions: [],
  refusal: null,
  error: null,
});

describe('thread leases', () => {
  let database: Database;
  let now = new Date('2026-01-01T00:00:00Z');
  const clock = () => now;
  const scope = { tenantId: 'tenant-lease', userId: 'u1' };
  beforeAll(async () => {
    database = await openCareConsultDatabase({ uri: 'pglite://memory' });
  });
  afterAll(() => database.close());

  it('lets a new turn take a thread whose holder never finished once the lease expired', async () => {
    const threads = new ThreadsService(database, 60_000, clock);
    const stale = await threads.begin(scope, 'crashed-thread');
    await expect(threads.begin(scope, 'crashed-thread')).rejects.toMatchObject({ status: 409, code: 'THREAD_BUSY' });
    now = new Date(now.getTime() + 61_000);
    const fresh = await threads.begin(scope, 'crashed-thread');
    // The late holder records its turn but must not free the thread for the new holder's competitors.
    await threads.complete(scope, stale, record('complete'));
    await expect(threads.begin(scope, 'crashed-thread')).rejects.toMatchObject({ status: 409 });
    await threads.complete(scope, fresh, record('complete'));
    const page = await threads.history(scope, 'crashed-thread', { limit: 10 });
    expect(page.turns).toBe(2);
    expect(page.busy).toBe(false);
    expect(page.checkpoints.map((c) => c.seq)).toEqual([2, 1]);
  });

  it('frees a thread with release when a turn cannot be recorded', async () => {
    const threads = new ThreadsService(database, 60_000, clock);
    const lease = await threads.begin(scope, 'released-thread');
    await threads.release(scope, lease);
    await expect(threads.begin(scope, 'released-thread')).resolves.toMatchObject({ threadId: 'released-thread' });
  });

  it('holds a new thread once its row is written and chains the next turn to the previous checkpoint', async () => {
    const threads = new ThreadsService(database, 60_000, clock);
    const first = threads.beginNew(scope);
    await first.ready;
    expect(first.parentId).toBeNull();
    await expect(threads.begin(scope, first.threadId)).rejects.toMatchObject({ status: 409 });
    await threads.complete(scope, first, record('aborted'));
    const second = await threads.begin(scope, first.threadId);
    expect(second.parentId).toBe(first.checkpointId);
  });
});

describe('a new thread when the database is gone', () => {
  it('rejects the lease readiness instead of pretending the thread is held', async () => {
    const database = await openCareConsultDatabase({ uri: 'pglite://memory' });
    await database.close();
    const lease = new ThreadsService(database, 60_000).beginNew({ tenantId: 't', userId: 'u' });
    await expect(lease.ready).rejects.toBeTruthy();
  });
});
