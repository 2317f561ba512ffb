import { and, asc, count, eq } from 'drizzle-orm';
import type { TenantTx, Tx } from '@care/db';
import { loginDirectory, users } from '../db/schema';

/** A stored user, hash included: only the auth and users services see this shape. */
export interface UserRecord {
  tenantId: string;
  id: string;
  email: string;
  passwordHash: string;
  roles: string[];
  createdAt: Date;
  updatedAt: Date;
}

/** Where an email logs in: the only cross-tenant fact login needs. */
interface DirectoryEntry {
  tenantId: string;
  userId: string;
}

/** Emails are stored and compared case-insensitively and without surrounding blanks. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Finds the tenant and user of a (normalised) email. */
export async function findDirectoryEntry(tx: Tx, email: string): Promise<DirectoryEntry | undefined> {
  const [row] = await tx
    .select({ tenantId: loginDirectory.tenantId, userId: loginDirectory.userId })
    .from(loginDirectory)
    .where(eq(loginDirectory.email, email));
  return row;
}

/** Number of users across all tenants (system path: the bootstrap check). */
export async function countAllUsers(tx: Tx): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(loginDirectory);
  return Number(row?.n ?? 0);
}

/** One user of the tenant. */
export async function findUser(tx: TenantTx, id: string): Promise<UserRecord | undefined> {
  const [row] = await tx
    .select()
    .from(users)
    .where(and(eq(users.tenantId, tx.tenantId), eq(users.id, id)));
  return row;
}

/** A page of the tenant's users, oldest first. */
export async function listUsers(
  tx: TenantTx,
  page: { limit: number; offset: number },
): Promise<UserRecord[]> {
  return tx
    .select()
    .from(users)
    .where(eq(users.tenantId, tx.tenantId))
    .orderBy(asc(users.createdAt), asc(users.id))
    .limit(page.limit)
    .offset(page.offset);
}

/** Inserts the user and its directory entry in the same (tenant) transaction. */
export async function insertUser(tx: Tx, user: UserRecord): Promise<void> {
  await tx.insert(users).values(user);
  await tx.insert(loginDirectory).values({ email: user.email, tenantId: user.tenantId, userId: user.id });
}

/** Applies a change to a user; returns the new row, or undefined if there is no such user. */
export async function updateUser(
  tx: TenantTx,
  id: string,
  change: Partial<Pick<UserRecord, 'passwordHash' | 'roles'>> & { updatedAt: Date },
): Promise<UserRecord | undefined> {
  const [row] = await tx
    .update(users)
    .set(change)
    .where(and(eq(users.tenantId, tx.tenantId), eq(users.id, id)))
    .returning();
  return row;
}

/** Deletes the user and its directory entry; its refresh tokens go with it (foreign key cascade). */
export async function deleteUser(tx: TenantTx, id: string): Promise<boolean> {
  const deleted = await tx
    .delete(users)
    .where(and(eq(users.tenantId, tx.tenantId), eq(users.id, id)))
    .returning({ id: users.id });
  if (!deleted.length) return false;
  await tx
    .delete(loginDirectory)
    .where(and(eq(loginDirectory.tenantId, tx.tenantId), eq(loginDirectory.userId, id)));
  return true;
}
