import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { authEvents, kbDocuments, loginDirectory, refreshTokens, users } from '../src/db/schema';
import { PasswordHasher } from '../src/users/password-hasher';
import { sqlState } from '../src/db/db-errors';
import { aUser, seedUser } from './builders/user.builder';
import { openTestDb, type TestDb } from './support/harness';
import { describeEachEngine } from '@care/service-kit/testing';

// The database itself confines tenant transactions (migrations 0001): these queries carry no tenant filter.
describeEachEngine('row-level security of the platform-auth tables', (engine) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await openTestDb(engine);
    const hasher = new PasswordHasher(4);
    await seedUser(t.db, hasher, aUser().inTenant('acme').build());
    await seedUser(t.db, hasher, aUser().inTenant('globex').build());
  });
  afterAll(() => t.close());

  it('shows a tenant transaction only its own users and directory entries, with no WHERE clause', async () => {
    const seen = await t.db.withTenant('acme', async (tx) => ({
      users: await tx.select({ tenantId: users.tenantId }).from(users),
      directory: await tx.select({ tenantId: loginDirectory.tenantId }).from(loginDirectory),
    }));
    expect(seen.users.length).toBeGreaterThan(0);
    expect(new Set(seen.users.map((r) => r.tenantId))).toEqual(new Set(['acme']));
    expect(new Set(seen.directory.map((r) => r.tenantId))).toEqual(new Set(['acme']));
  });

  it('refuses writes of another tenant rows from a tenant transaction', async () => {
    const now = new Date();
    await expect(
      t.db.withTenant('acme', (tx) =>
        tx.insert(kbDocuments).values({
          tenantId: 'globex',
          id: randomUUID(),
          title: 'x',
          content: 'y',
          contentType: 'text/plain',
          tags: [],
          indexStatus: 'NOT_INDEXED',
          createdAt: now,
          updatedAt: now,
        }),
      ),
    ).rejects.toThrow();
    await expect(
      t.db.withTenant('acme', (tx) =>
        tx
          .insert(loginDirectory)
          .values({ email: `${randomUUID()}@x.test`, tenantId: 'globex', userId: randomUUID() }),
      ),
    ).rejects.toThrow();
    const updated = await t.db.withTenant('acme', (tx) =>
      tx
        .update(refreshTokens)
        .set({ revokedAt: now })
        .where(sql`true`)
        .returning({ t: refreshTokens.tenantId }),
    );
    expect(updated.every((r) => r.t === 'acme')).toBe(true);
  });

  it('lets the runtime role append to the audit trail but not read it', async () => {
    await t.db.withTenant('acme', (tx) =>
      tx.insert(authEvents).values({ id: randomUUID(), type: 'LOGOUT', tenantId: 'acme' }),
    );
    const err = await t.db
      .withTenant('acme', (tx) => tx.select().from(authEvents))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(sqlState(err)).toBe('42501'); // insufficient_privilege
  });
});
