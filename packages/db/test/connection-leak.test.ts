// With a single pooled connection every tenant transaction reuses the connection the previous caller had, so
// a role or app.tenant_id that survived COMMIT/ROLLBACK would show up in the next checkout.
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { Database, Tx } from '../src';
import { notes } from './fixtures/notes.schema';
import { describeEachEngine, RUNTIME_ROLE, unique } from './support/engines';

interface Session extends Record<string, unknown> {
  role: string;
  tenant: string | null;
}

const SESSION = sql`select current_user as role, nullif(current_setting('app.tenant_id', true), '') as tenant`;

async function sessionOf(db: Database['db'] | Tx): Promise<Session> {
  return (await db.execute<Session>(SESSION)).rows[0]!;
}

type Op =
  { kind: 'tenant'; tenant: string; yields: number; fail: boolean } | { kind: 'plain'; yields: number };

const tenantId = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 10 }).filter((s) => s.trim() !== '');
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('tenant' as const),
    tenant: tenantId,
    yields: fc.nat(3),
    fail: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('plain' as const), yields: fc.nat(3) }),
);

describeEachEngine('no tenant or role leak across checkouts', (engine) => {
  let database: Database;
  let cleanup: () => Promise<void>;
  let owner: string;

  beforeAll(async () => {
    ({ database, cleanup } = await engine.open({ poolSize: 1 }));
    owner = (await sessionOf(database.db)).role;
  });
  afterAll(async () => cleanup?.());

  it('runs plain queries as the owner, not as the runtime role', () => {
    expect(owner).not.toBe(RUNTIME_ROLE);
  });

  it('shows no app.tenant_id and the original role to a plain query after withTenant', async () => {
    await database.withTenant(unique('t'), (tx) => sessionOf(tx));
    expect(await sessionOf(database.db)).toEqual({ role: owner, tenant: null });
  });

  it('shows no app.tenant_id and the original role after a withTenant that failed', async () => {
    await expect(database.withTenant(unique('t'), () => Promise.reject(new Error('boom')))).rejects.toThrow(
      'boom',
    );
    expect(await sessionOf(database.db)).toEqual({ role: owner, tenant: null });
    expect(await database.withSystem((tx) => sessionOf(tx))).toEqual({ role: owner, tenant: null });
  });

  it('keeps every concurrent transaction in its own tenant and leaks nothing to interleaved plain queries', async () => {
    async function run(o: Op, index: number): Promise<void> {
      for (let i = 0; i < o.yields; i += 1) await new Promise((resolve) => setImmediate(resolve));
      if (o.kind === 'plain') {
        expect(await sessionOf(database.db)).toEqual({ role: owner, tenant: null });
        return;
      }
      const id = `${index}-${unique('n')}`;
      const done = database.withTenant(o.tenant, async (tx) => {
        expect(await sessionOf(tx)).toEqual({ role: RUNTIME_ROLE, tenant: o.tenant });
        await tx.insert(notes).values({ tenantId: o.tenant, id, body: 'property' });
        const visible = await tx.select({ tenantId: notes.tenantId }).from(notes);
        expect(visible.every((row) => row.tenantId === o.tenant)).toBe(true);
        if (o.fail) throw new Error('planned failure');
      });
      if (o.fail) await expect(done).rejects.toThrow('planned failure');
      else await done;
      const kept = await database.withSystem((tx) => tx.select().from(notes).where(eq(notes.id, id)));
      expect(kept).toHaveLength(o.fail ? 0 : 1);
    }
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 8 }), async (ops) => {
        await Promise.all(ops.map(run));
        expect(await sessionOf(database.db)).toEqual({ role: owner, tenant: null });
      }),
      { numRuns: 20 },
    );
  });
});
