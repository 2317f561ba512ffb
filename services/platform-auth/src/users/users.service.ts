import { randomUUID } from 'node:crypto';
import type { Database, TenantTx } from '@care/db';
import type { Static, UserView as UserViewSchema } from '@care/contracts';
import { ConflictError, ForbiddenError, NotFoundError, type Caller } from '@care/service-kit';
import type { AuditTrail, ClientInfo } from '../audit/audit.service';
import { FOREIGN_KEY_VIOLATION, sqlState, UNIQUE_VIOLATION } from '../db/db-errors';
import { assertNewPassword, type PasswordHasher } from './password-hasher';
import {
  deleteUser,
  findUser,
  insertUser,
  listUsers,
  normaliseEmail,
  updateUser,
  type UserRecord,
} from './users.repository';
import type { CreateUserRequest, UpdateUserRequest } from './users.schemas';

/** Dependencies of {@link UsersService}. */
interface UsersServiceDeps {
  db: Database;
  hasher: PasswordHasher;
  audit: AuditTrail;
  clock: () => Date;
  /** Ends the user's sessions (refresh tokens) inside the change's transaction; the auth feature provides it. */
  revokeSessions: (tx: TenantTx, userId: string, now: Date) => Promise<unknown>;
}

type UserView = Static<typeof UserViewSchema>;

/** The API view of a user: never the hash. */
function toUserView(u: UserRecord): UserView {
  return {
    id: u.id,
    email: u.email,
    roles: u.roles as UserView['roles'],
    tenantId: u.tenantId,
    createdAt: u.createdAt.toISOString(),
    updatedAt: u.updatedAt.toISOString(),
  };
}

/** Whether the caller holds the global platform-admin scope. */
const isPlatformAdmin = (caller: Caller) => caller.scopes.includes('platform:admin');

const assertMayManage = (caller: Caller, roles: readonly string[]) => {
  if (roles.includes('PLATFORM_ADMIN') && !isPlatformAdmin(caller)) {
    throw new ForbiddenError(
      'Only a platform administrator may grant or manage PLATFORM_ADMIN',
      'ROLE_FORBIDDEN',
    );
  }
};

const existing = async (tx: TenantTx, id: string) => {
  const user = await findUser(tx, id);
  if (!user) throw new NotFoundError('No such user', 'USER_NOT_FOUND');
  return user;
};

/** User management within a tenant (TENANT_ADMIN) or in any tenant (PLATFORM_ADMIN, audited; ADR 0104). */
export class UsersService {
  constructor(private readonly d: UsersServiceDeps) {}

  /** Runs `fn` in the target tenant; another tenant than the caller's is a platform-admin-only, audited path. */
  private async inTenant<T>(
    caller: Caller,
    client: ClientInfo,
    requested: string | undefined,
    action: string,
    fn: (tx: TenantTx) => Promise<T>,
  ): Promise<T> {
    const d = this.d;
    const tenantId = requested ?? caller.tenantId;
    if (tenantId === caller.tenantId) return d.db.withTenant(tenantId, fn);
    if (!isPlatformAdmin(caller))
      throw new ForbiddenError(
        'Only a platform administrator may act in another tenant',
        'CROSS_TENANT_FORBIDDEN',
      );
    return d.db.withTenant(tenantId, async (tx) => {
      const result = await fn(tx);
      await d.audit.record(
        {
          type: 'CROSS_TENANT_ACCESS',
          tenantId,
          userId: caller.userId,
          ip: client.ip,
          requestId: client.requestId,
          detail: { action, callerTenantId: caller.tenantId },
        },
        tx,
      );
      return result;
    });
  }

  list(
    caller: Caller,
    client: ClientInfo,
    tenantId: string | undefined,
    page: { limit: number; offset: number },
  ): Promise<UserView[]> {
    return this.inTenant(caller, client, tenantId, 'users.list', async (tx) =>
      (await listUsers(tx, page)).map(toUserView),
    );
  }

  get(caller: Caller, client: ClientInfo, tenantId: string | undefined, id: string): Promise<UserView> {
    return this.inTenant(caller, client, tenantId, 'users.get', async (tx) =>
      toUserView(await existing(tx, id)),
    );
  }

  async create(caller: Caller, client: ClientInfo, body: CreateUserRequest): Promise<UserView> {
    const d = this.d;
    assertNewPassword(body.password);
    assertMayManage(caller, body.roles);
    const passwordHash = await d.hasher.hash(body.password);
    const now = d.clock();
    try {
      return await this.inTenant(caller, client, body.tenantId, 'users.create', async (tx) => {
        const user: UserRecord = {
          tenantId: tx.tenantId,
          id: randomUUID(),
          email: normaliseEmail(body.email),
          passwordHash,
          roles: [...body.roles],
          createdAt: now,
          updatedAt: now,
        };
        await insertUser(tx, user);
        return toUserView(user);
      });
    } catch (err) {
      if (sqlState(err) === UNIQUE_VIOLATION)
        throw new ConflictError('A user with this email already exists', 'EMAIL_TAKEN');
      if (sqlState(err) === FOREIGN_KEY_VIOLATION)
        throw new NotFoundError('No such tenant', 'TENANT_NOT_FOUND');
      throw err;
    }
  }

  async update(
    caller: Caller,
    client: ClientInfo,
    tenantId: string | undefined,
    id: string,
    body: UpdateUserRequest,
  ): Promise<UserView> {
    const d = this.d;
    if (body.password !== undefined) assertNewPassword(body.password);
    if (body.roles) assertMayManage(caller, body.roles);
    const passwordHash = body.password === undefined ? undefined : await d.hasher.hash(body.password);
    return this.inTenant(caller, client, tenantId, 'users.update', async (tx) => {
      assertMayManage(caller, (await existing(tx, id)).roles);
      const now = d.clock();
      const updated = await updateUser(tx, id, {
        ...(passwordHash ? { passwordHash } : {}),
        ...(body.roles ? { roles: [...body.roles] } : {}),
        updatedAt: now,
      });
      // New credentials or roles: sessions started under the old ones end at their next refresh.
      await d.revokeSessions(tx, id, now);
      return toUserView(updated!);
    });
  }

  remove(caller: Caller, client: ClientInfo, tenantId: string | undefined, id: string): Promise<void> {
    return this.inTenant(caller, client, tenantId, 'users.delete', async (tx) => {
      assertMayManage(caller, (await existing(tx, id)).roles);
      await deleteUser(tx, id);
    });
  }
}
