import jwt from 'jsonwebtoken';
import { randomUUID } from 'node:crypto';

/** HS256 key the test apps verify with (>= 32 bytes). */
export const TEST_JWT_SECRET = 'care-consult-test-secret-0123456789abcdef';

/** A caller as platform-auth would describe it in an access token. */
export interface TestUser {
  userId: string;
  email: string;
  tenantId: string;
  roles: string[];
}

/** Builder of test callers: `aUser().inTenant('t1').withRole('TENANT_ADMIN').build()`. */
export class UserBuilder {
  private user: TestUser = { userId: `u-${randomUUID()}`, email: 'user@example.test', tenantId: 'tenant-a', roles: ['USER'] };

  /** Sets the user id (`sub`). */
  withId(userId: string): this {
    this.user = { ...this.user, userId };
    return this;
  }

  /** Sets the tenant. */
  inTenant(tenantId: string): this {
    this.user = { ...this.user, tenantId };
    return this;
  }

  /** Replaces the roles with one role. */
  withRole(role: string): this {
    this.user = { ...this.user, roles: [role] };
    return this;
  }

  /** The caller. */
  build(): TestUser {
    return { ...this.user };
  }

  /** A signed access token of the caller, like platform-auth issues (iss/aud care-platform, 15 min). */
  token(opts: { secret?: string; expiresInSeconds?: number; issuer?: string } = {}): string {
    const u = this.user;
    return jwt.sign({ email: u.email, tenantId: u.tenantId, roles: u.roles }, opts.secret ?? TEST_JWT_SECRET, {
      algorithm: 'HS256',
      subject: u.userId,
      issuer: opts.issuer ?? 'care-platform',
      audience: 'care-platform',
      expiresIn: opts.expiresInSeconds ?? 900,
      jwtid: randomUUID(),
    });
  }
}

/** Starts a test caller builder. */
export function aUser(): UserBuilder {
  return new UserBuilder();
}
