import { randomUUID } from 'node:crypto';
import type { SignOptions } from 'jsonwebtoken';
import type { Principal } from '../auth/access-token-verifier';
import { rolesToScopes } from '../auth/role-scopes';
import { signTestToken } from './tokens';

/** A test caller as an access token describes it. */
export interface TestUser {
  userId: string;
  email: string;
  tenantId: string;
  roles: string[];
}

let seq = 0;

/** Builder of test callers: `aUser().inTenant('t1').withRole('TENANT_ADMIN').build()`. */
export class UserBuilder {
  private user: TestUser;

  /** A user with a new id and a unique email, role `USER`, in `acme`; `defaults` override. */
  constructor(defaults: Partial<TestUser> = {}) {
    seq += 1;
    this.user = {
      userId: randomUUID(),
      email: `user${seq}-${randomUUID().slice(0, 8)}@example.test`,
      tenantId: 'acme',
      roles: ['USER'],
      ...defaults,
    };
  }

  /** Sets the user id (`sub`). */
  withId(userId: string): this {
    this.user = { ...this.user, userId };
    return this;
  }

  /** Sets the email. */
  withEmail(email: string): this {
    this.user = { ...this.user, email };
    return this;
  }

  /** Sets the tenant. */
  inTenant(tenantId: string): this {
    this.user = { ...this.user, tenantId };
    return this;
  }

  /** Replaces the roles. */
  withRole(...roles: string[]): this {
    this.user = { ...this.user, roles };
    return this;
  }

  /** The caller. */
  build(): TestUser {
    return { ...this.user, roles: [...this.user.roles] };
  }

  /** The caller as a verified principal (scopes from its roles). */
  principal(): Principal {
    const u = this.user;
    return {
      userId: u.userId,
      email: u.email,
      tenantId: u.tenantId,
      roles: [...u.roles],
      scopes: rolesToScopes(u.roles),
    };
  }

  /** A signed access token of the caller (see `signTestToken`); `claims` are added, `options` override. */
  token(options: { secret?: string; claims?: Record<string, unknown> } & SignOptions = {}): string {
    const { secret, claims, ...sign } = options;
    const u = this.user;
    return signTestToken(
      { email: u.email, tenantId: u.tenantId, roles: u.roles, ...claims },
      { subject: u.userId, jwtid: randomUUID(), ...sign },
      secret,
    );
  }

  /** `Authorization` header value carrying {@link token}. */
  bearer(options: Parameters<UserBuilder['token']>[0] = {}): string {
    return `Bearer ${this.token(options)}`;
  }
}

/** Starts a test caller builder. */
export function aUser(defaults: Partial<TestUser> = {}): UserBuilder {
  return new UserBuilder(defaults);
}
