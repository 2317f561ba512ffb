// Row-level security through withTenant on both engines: another tenant's rows are invisible, unwritable, and
// cannot be forged by an insert; blank tenant ids are refused; the runtime role without a tenant sees nothing.
import { and, eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { TenantRequiredError, type Database } from '../src';
import { notes } from './fixtures/notes.schema';
import { describeEachEngine, pgMessage, RUNTIME_ROLE, unique } from './support/engines';

describeEachEngine('tenant isolation', (engine) => {
  let database: Database;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    ({ database, cleanup } = await engine.open());
  });
  afterAll(async () => cleanup?.());

  async function seedNoteOf(tenant: string): Promise<string> {
    const id = unique('note');
    await database.withTenant(tenant, (tx) =>
      tx.insert(notes).values({ tenantId: tenant, id, body: 'original' }),
    );
    return id;
  }

  it('hides a row of tenant A from tenant B and shows it to A', async () => {
    const [a, b] = [unique('a'), unique('b')];
    const id = await seedNoteOf(a);
    const seenByB = await database.withTenant(b, (tx) => tx.select().from(notes));
    const seenByA = await database.withTenant(a, (tx) => tx.select().from(notes));
    expect(seenByB).toEqual([]);
    expect(seenByA).toEqual([{ tenantId: a, id, body: 'original' }]);
  });

  it('lets tenant B neither update nor delete a row of tenant A', async () => {
    const [a, b] = [unique('a'), unique('b')];
    const id = await seedNoteOf(a);
    const byId = and(eq(notes.tenantId, a), eq(notes.id, id));
    const updated = await database.withTenant(b, (tx) =>
      tx.update(notes).set({ body: 'hijacked' }).where(byId).returning(),
    );
    const deleted = await database.withTenant(b, (tx) => tx.delete(notes).where(byId).returning());
    expect(updated).toHaveLength(0);
    expect(deleted).toHaveLength(0);
    const after = await database.withTenant(a, (tx) => tx.select().from(notes).where(byId));
    expect(after).toEqual([{ tenantId: a, id, body: 'original' }]);
  });

  it("rejects an insert carrying tenant A's id inside tenant B's transaction (WITH CHECK)", async () => {
    const [a, b] = [unique('a'), unique('b')];
    const forged = database.withTenant(b, (tx) =>
      tx.insert(notes).values({ tenantId: a, id: 'x', body: 'forged' }),
    );
    await expect(forged.catch(pgMessage)).resolves.toMatch(/row-level security/);
    const seenByA = await database.withTenant(a, (tx) => tx.select().from(notes));
    expect(seenByA).toEqual([]);
  });

  it('rejects moving a row to another tenant by updating tenant_id (WITH CHECK)', async () => {
    const [a, b] = [unique('a'), unique('b')];
    const id = await seedNoteOf(a);
    const moved = database.withTenant(a, (tx) =>
      tx.update(notes).set({ tenantId: b }).where(eq(notes.id, id)),
    );
    await expect(moved.catch(pgMessage)).resolves.toMatch(/row-level security/);
  });

  it('runs tenant transactions as the runtime role with app.tenant_id set', async () => {
    const tenant = unique('t');
    const seen = await database.withTenant(tenant, (tx) =>
      tx.execute<{ role: string; tenant: string }>(
        sql`select current_user as role, current_setting('app.tenant_id') as tenant`,
      ),
    );
    expect(seen.rows).toEqual([{ role: RUNTIME_ROLE, tenant }]);
  });

  it('refuses blank tenant ids without calling the callback', async () => {
    const blank = fc.stringMatching(/^[ \t\r\n\f\v\u00a0\u2003]*$/);
    await fc.assert(
      fc.asyncProperty(blank, async (tenantId) => {
        const fn = jest.fn(async () => 'ran');
        await expect(database.withTenant(tenantId, fn)).rejects.toBeInstanceOf(TenantRequiredError);
        expect(fn).not.toHaveBeenCalled();
      }),
      { numRuns: 25 },
    );
  });

  it('refuses tenant ids PostgreSQL text would alter (NUL, lone surrogate) and non-strings', async () => {
    for (const bad of ['a\u0000b', 'a\ud800', '\udc00x', undefined, null, 42]) {
      await expect(database.withTenant(bad as string, async () => 'ran')).rejects.toBeInstanceOf(
        TenantRequiredError,
      );
    }
  });

  it('shows the runtime role nothing and lets it write nothing outside any tenant', async () => {
    await seedNoteOf(unique('a'));
    const visible = await database.withSystem(async (tx) => {
      await tx.execute(sql.raw(`set local role ${RUNTIME_ROLE}`));
      return tx.select().from(notes);
    });
    expect(visible).toEqual([]);
    const write = database.withSystem(async (tx) => {
      await tx.execute(sql.raw(`set local role ${RUNTIME_ROLE}`));
      await tx.insert(notes).values({ tenantId: 'anyone', id: 'x', body: 'no tenant' });
    });
    await expect(write.catch(pgMessage)).resolves.toMatch(/row-level security/);
  });

  it('lets withSystem read and write across tenants', async () => {
    const [a, b] = [unique('a'), unique('b')];
    const [idA, idB] = [await seedNoteOf(a), await seedNoteOf(b)];
    const rows = await database.withSystem(async (tx) => {
      await tx.update(notes).set({ body: 'system' }).where(eq(notes.id, idB));
      return tx
        .select()
        .from(notes)
        .where(sql`${notes.id} in (${idA}, ${idB})`)
        .orderBy(notes.tenantId);
    });
    expect(rows).toEqual([
      { tenantId: a, id: idA, body: 'original' },
      { tenantId: b, id: idB, body: 'system' },
    ]);
  });

  it('rolls back the tenant transaction when the callback throws', async () => {
    const tenant = unique('t');
    const failing = database.withTenant(tenant, async (tx) => {
      await tx.insert(notes).values({ tenantId: tenant, id: 'gone', body: 'rolled back' });
      throw new Error('boom');
    });
    await expect(failing).rejects.toThrow('boom');
    expect(await database.withTenant(tenant, (tx) => tx.select().from(notes))).toEqual([]);
  });

  it('answers ping', async () => {
    await expect(database.ping()).resolves.toBeUndefined();
  });
});
