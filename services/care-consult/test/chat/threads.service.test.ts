import { randomUUID } from 'node:crypto';
import type { Database } from '@care/db';
import { sql } from 'drizzle-orm';
import { testEngines } from '@care/service-kit/testing';
import { openConsultDatabase } from '../support/engines';
import { openCareConsultDatabase } from '../../src/db/open-database';
import { acquireTurn, completeTurn } from '../../src/threads/threads.repository';
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
    const threads = new ThreadsService({ database, leaseMs: 60_000, clock });
    const stale = await threads.begin(scope, 'crashed-thread');
    await expect(threads.begin(scope, 'crashed-thread')).rejects.toMatchObject({
      status: 409,
      code: 'THREAD_BUSY',
    });
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
    const threads = new ThreadsService({ database, leaseMs: 60_000, clock });
    const lease = await threads.begin(scope, 'released-thread');
    await threads.release(scope, lease);
    await expect(threads.begin(scope, 'released-thread')).resolves.toMatchObject({
      threadId: 'released-thread',
    });
  });

  it('holds a new thread once its row is written and chains the next turn to the previous checkpoint', async () => {
    const threads = new ThreadsService({ database, leaseMs: 60_000, clock });
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
    const lease = new ThreadsService({ database, leaseMs: 60_000 }).beginNew({ tenantId: 't', userId: 'u' });
    await expect(lease.ready).rejects.toBeTruthy();
  });
});

describe.each(testEngines())('chat_acquire_turn on $name', (engine) => {
  let handle: { database: Database; close(): Promise<void> };
  beforeAll(async () => {
    handle = await engine.open(openConsultDatabase);
  });
  afterAll(() => handle.close());
  const at = new Date('2026-02-01T00:00:00Z');
  const until = new Date('2026-02-01T00:10:00Z');
  const acquire = (tenantId: string, threadId: string, ownerId: string) =>
    acquireTurn(handle.database.db, { tenantId, threadId, ownerId, turnId: randomUUID(), now: at, until });

  it('runs under RLS as the runtime role of that tenant, and leaves the next statement on the connection as the owner', async () => {
    const { database } = handle;
    const inside = await database.withSystem(async (tx) => {
      await acquireTurn(tx as never, {
        tenantId: 'tenant-f1',
        threadId: 'probe',
        ownerId: 'u1',
        turnId: randomUUID(),
        now: at,
        until,
      });
      const { rows } = await tx.execute<{ who: string; tenant: string }>(
        sql`select current_user as who, current_setting('app.tenant_id', true) as tenant`,
      );
      return rows[0];
    });
    expect(inside).toEqual({ who: 'care_consult_app', tenant: 'tenant-f1' });
    // Autocommit calls end their own transaction: the pool's connections go back as the owner, no tenant.
    for (let i = 0; i < 12; i++) await acquire('tenant-f1', `t-${i}`, 'u1');
    const after = await Promise.all(
      Array.from({ length: 12 }, () =>
        database.db.execute<{ who: string; tenant: string | null }>(
          sql`select current_user as who, nullif(current_setting('app.tenant_id', true), '') as tenant`,
        ),
      ),
    );
    for (const r of after)
      expect(r.rows[0]).toEqual({ who: expect.not.stringMatching(/^care_consult_app$/), tenant: null });
  });

  it('keeps tenants apart: the same thread id in another tenant is another thread, and rows of one tenant stay invisible to the other', async () => {
    expect(await acquire('tenant-a', 'shared-id', 'alice')).toEqual({ ok: true, lastCheckpointId: null });
    expect(await acquire('tenant-a', 'shared-id', 'alice')).toEqual({ ok: false, reason: 'busy' });
    expect(await acquire('tenant-a', 'shared-id', 'mallory')).toEqual({ ok: false, reason: 'not_owner' });
    // Another tenant with the same thread id and user: its own row, not tenant-a's lease.
    expect(await acquire('tenant-b', 'shared-id', 'alice')).toEqual({ ok: true, lastCheckpointId: null });
    const rows = await handle.database.withTenant(
      'tenant-b',
      async (tx) =>
        (
          await tx.execute<{ tenant_id: string; owner_id: string }>(
            sql`select tenant_id, owner_id from chat_threads where thread_id = 'shared-id'`,
          )
        ).rows,
    );
    expect(rows).toEqual([{ tenant_id: 'tenant-b', owner_id: 'alice' }]);
  });

  it('refuses a blank tenant and changes nothing', async () => {
    const err = await acquire('  ', 'blank', 'u1').then(
      () => undefined,
      (e: Error & { cause?: Error }) => e,
    );
    expect(String(err?.cause?.message ?? err?.message)).toMatch(/needs a tenant id/);
    const { rows } = await handle.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from chat_threads where thread_id = 'blank'`,
    );
    expect(rows[0].n).toBe(0);
  });

  it("completes a turn under RLS too: a checkpoint written as another tenant never touches this tenant's thread", async () => {
    const { database } = handle;
    const turnId = randomUUID();
    await acquireTurn(database.db, {
      tenantId: 'tenant-c',
      threadId: 'held',
      ownerId: 'carol',
      turnId,
      now: at,
      until,
    });
    const checkpoint = (tenantId: string) => ({
      tenantId,
      threadId: 'held',
      checkpointId: randomUUID(),
      parentId: null,
      ownerId: 'carol',
      agentId: 'sleep-coach',
      status: 'complete',
      provider: 'offline',
      model: 'm',
      messages: [{ role: 'user', content: 'q' }],
      toolCalls: [],
      suggestions: ['s'],
      refusal: null,
      error: null,
      startedAt: at,
      completedAt: at,
    });
    // Written as tenant-d (same thread id, same turn id): RLS hides tenant-c's row from the update.
    await completeTurn(database.db, turnId, checkpoint('tenant-d'), at);
    const thread = async () =>
      (
        await database.withTenant('tenant-c', (tx) =>
          tx.execute<{ turns: number; busy: boolean }>(
            sql`select turns, busy_turn is not null as busy from chat_threads where thread_id = 'held'`,
          ),
        )
      ).rows[0];
    expect(await thread()).toEqual({ turns: 0, busy: true });
    expect(await completeTurn(database.db, turnId, checkpoint('tenant-c'), at)).toBe(1);
    expect(await thread()).toEqual({ turns: 1, busy: false });
    const stored = await database.withTenant(
      'tenant-c',
      async (tx) =>
        (
          await tx.execute<{ n: number; refusal: unknown }>(
            sql`select count(*)::int as n, max(refusal::text) as refusal from chat_checkpoints where thread_id = 'held'`,
          )
        ).rows[0],
    );
    expect(stored).toEqual({ n: 1, refusal: null });
  });
});
