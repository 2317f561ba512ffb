import { randomUUID } from 'node:crypto';
import type { Database } from '@care/db';
import type { Role } from '@care/contracts';
import { ensureTenant } from '../../src/tenants/tenants.repository';
import { insertUser } from '../../src/users/users.repository';
import type { PasswordHasher } from '../../src/users/password-hasher';
import { signToken } from '../support/harness';

/** A user to create in a test. */
export interface TestUser {
  id: string;
  email: string;
  password: string;
  roles: Role[];
  tenantId: string;
}

let seq = 0;

/** Builder: `aUser().withRole('VIEWER').inTenant('t1').build()`; every user gets a unique email and id. */
export function aUser() {
  seq += 1;
  const u: TestUser = {
    id: randomUUID(),
    email: `user${seq}-${randomUUID().slice(0, 8)}@example.test`,
    password: `pass-${seq}-word`,
    roles: ['USER'],
    tenantId: 'acme',
  };
  const builder = {
    withRole(...roles: Role[]) {
      u.roles = roles;
      return builder;
    },
    inTenant(tenantId: string) {
      u.tenantId = tenantId;
      return builder;
    },
    withEmail(email: string) {
      u.email = email;
      return builder;
    },
    withPassword(password: string) {
      u.password = password;
      return builder;
    },
    build: (): TestUser => ({ ...u }),
  };
  return builder;
}

/** Stores the user (and its tenant) directly through the repositories. */
export async function seedUser(db: Database, hasher: PasswordHasher, user: TestUser): Promise<TestUser> {
  await db.withSystem((tx) => ensureTenant(tx, user.tenantId, user.tenantId, new Date()));
  const passwordHash = await hasher.hash(user.password);
  const now = new Date();
  await db.withTenant(user.tenantId, (tx) =>
    insertUser(tx, {
      ...user,
      email: user.email.toLowerCase(),
      passwordHash,
      createdAt: now,
      updatedAt: now,
    }),
  );
  return user;
}

/** An access token for the user, as login would issue. */
export function tokenOf(user: TestUser, extra: Record<string, unknown> = {}): string {
  return signToken({ sub: user.id, email: user.email, tenantId: user.tenantId, roles: user.roles, ...extra });
}

/** `Authorization` header value for the user. */
export function bearer(user: TestUser): string {
  return `Bearer ${tokenOf(user)}`;
}
