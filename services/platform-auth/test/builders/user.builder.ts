import type { Database } from '@care/db';
import type { Role } from '@care/contracts';
import { ensureTenant } from '../../src/tenants/tenants.repository';
import { insertUser } from '../../src/users/users.repository';
import type { PasswordHasher } from '../../src/users/password-hasher';
import { aUser as kitUser, signTestToken } from '@care/service-kit/testing';

/** A user to create in a test. */
export interface TestUser {
  id: string;
  email: string;
  password: string;
  roles: Role[];
  tenantId: string;
}

let seq = 0;

/**
 * Builder: `aUser().withRole('VIEWER').inTenant('t1').build()`; the kit's user builder (unique id and email, tenant
 * `acme`, role USER) plus the password platform-auth's users log in with.
 */
export function aUser() {
  seq += 1;
  const kit = kitUser();
  let password = `pass-${seq}-word`;
  const builder = {
    withRole(...roles: Role[]) {
      kit.withRole(...roles);
      return builder;
    },
    inTenant(tenantId: string) {
      kit.inTenant(tenantId);
      return builder;
    },
    withEmail(email: string) {
      kit.withEmail(email);
      return builder;
    },
    withPassword(value: string) {
      password = value;
      return builder;
    },
    build: (): TestUser => {
      const u = kit.build();
      return { id: u.userId, email: u.email, password, roles: u.roles as Role[], tenantId: u.tenantId };
    },
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
  return signTestToken({
    sub: user.id,
    email: user.email,
    tenantId: user.tenantId,
    roles: user.roles,
    ...extra,
  });
}

/** `Authorization` header value for the user. */
export function bearer(user: TestUser): string {
  return `Bearer ${tokenOf(user)}`;
}
