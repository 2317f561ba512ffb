// withTenant hands over a transaction bound to its tenant: `tx.tenantId` is the tenant the RLS setting names, each
// call (also concurrent ones) gets its own, it cannot be reassigned, and callbacks typed `(tx: Tx)` still fit.
import { sql } from 'drizzle-orm';
import type { Database, TenantTx, Tx } from '../src';
import { notes } from './fixtures/notes.schema';
import { describeEachEngine, unique } from './support/engines';

/** A repository function in the new style: the tenant comes from the transaction. */
async function insertNote(tx: TenantTx, id: string, body: string): Promise<void> {
  await tx.insert(notes).values({ tenantId: tx.tenantId, id, body });
}

/** A repository function in the old style, still accepted by withTenant. */
async function countNotes(tx: Tx): Promise<number> {
  return (await tx.select().from(notes)).length;
}

describeEachEngine('tenant-bound transactions', (engine) => {
  let database: Database;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    ({ database, cleanup } = await engine.open());
  });
  afterAll(async () => cleanup?.());

  it('binds tx.tenantId to the tenant whose rows RLS shows', async () => {
    const tenant = unique('t');
    const [seen, setting] = await database.withTenant(tenant, async (tx) => {
      const result = await tx.execute<{ t: string }>(sql`select current_setting('app.tenant_id') as t`);
      return [tx.tenantId, result.rows[0]!.t];
    });
    expect(seen).toBe(tenant);
    expect(setting).toBe(tenant);
  });

  it('lets a repository take only the transaction, and old (tx: Tx) callbacks still run', async () => {
    const [a, b] = [unique('a'), unique('b')];
    await database.withTenant(a, (tx) => insertNote(tx, unique('n'), 'of a'));
    expect(await database.withTenant(a, countNotes)).toBe(1);
    expect(await database.withTenant(b, countNotes)).toBe(0);
    const [row] = await database.withTenant(a, (tx) => tx.select().from(notes));
    expect(row!.tenantId).toBe(a);
  });

  it('gives each call, concurrent ones included, its own tenant', async () => {
    const tenants = [unique('x'), unique('y'), unique('z')];
    const seen = await Promise.all(
      tenants.map((t) =>
        database.withTenant(t, async (tx) => {
          await new Promise((r) => setTimeout(r, 5));
          return tx.tenantId;
        }),
      ),
    );
    expect(seen).toEqual(tenants);
  });

  it('keeps tenantId read-only', async () => {
    const tenant = unique('r');
    await database.withTenant(tenant, async (tx) => {
      expect(() => {
        (tx as { tenantId: string }).tenantId = 'other';
      }).toThrow(TypeError);
      expect(tx.tenantId).toBe(tenant);
    });
  });
});
