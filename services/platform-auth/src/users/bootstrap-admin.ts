import { randomUUID } from 'node:crypto';
import type { Database } from '@care/db';
import type { Logger } from '@care/service-kit';
import type { AuditTrail } from '../audit/audit.service';
import { assertNewPassword, type PasswordHasher } from './password-hasher';
import { ensureTenant } from '../tenants/tenants.repository';
import { sqlState, UNIQUE_VIOLATION } from '../db/db-errors';
import { countAllUsers, insertUser, normaliseEmail } from './users.repository';

/** Settings of {@link bootstrapAdmin}. */
interface BootstrapOptions {
  email?: string;
  password?: string;
  tenantId: string;
}

/**
 * Creates the first PLATFORM_ADMIN when no user exists yet and both BOOTSTRAP_ADMIN_* variables are set.
 * Returns whether one was created. Runs on the system path: there is no tenant context before the first user.
 * Two replicas starting together cannot both create it: the email is the directory's primary key.
 */
export async function bootstrapAdmin(
  d: { db: Database; hasher: PasswordHasher; audit: AuditTrail; logger: Logger; clock: () => Date },
  o: BootstrapOptions,
): Promise<boolean> {
  if (!o.email || !o.password) return false;
  if ((await d.db.withSystem(countAllUsers)) > 0) return false;
  assertNewPassword(o.password);
  const passwordHash = await d.hasher.hash(o.password);
  const now = d.clock();
  const email = normaliseEmail(o.email);
  const id = randomUUID();
  const created = await d.db
    .withSystem(async (tx) => {
      if ((await countAllUsers(tx)) > 0) return false;
      await ensureTenant(tx, o.tenantId, o.tenantId, now);
      await insertUser(tx, {
        tenantId: o.tenantId,
        id,
        email,
        passwordHash,
        roles: ['PLATFORM_ADMIN'],
        createdAt: now,
        updatedAt: now,
      });
      await d.audit.record({ type: 'BOOTSTRAP_ADMIN_CREATED', tenantId: o.tenantId, userId: id, email }, tx);
      return true;
    })
    // Another replica created it between our check and our insert.
    .catch((err: unknown) => {
      if (sqlState(err) === UNIQUE_VIOLATION) return false;
      throw err;
    });
  if (created) d.logger.info({ tenantId: o.tenantId }, 'created the bootstrap platform administrator');
  return created;
}
