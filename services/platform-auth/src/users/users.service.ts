import { randomUUID } from 'node:crypto';
import type { Database, Tx } from '@care/db';
import type { Static, UserView as UserViewSchema } from '@care/contracts';
import { ConflictError, ForbiddenError, NotFoundError } from '@care/service-kit';
import type { AuditTrail } from '../audit/audit.service';
import { isPlatformAdmin, type RequestContext } from '../security/request-context';
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
  revokeSessions: (tx: Tx, tenantId: string, userId: string, now: Date) => Promise<unknown>;
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

const assertMayManage = (ctx: RequestContext, roles: readonly string[]) => {
  if (roles.includes('PLATFORM_ADMIN') && !isPlatformAdmin(ctx)) {
    throw new ForbiddenError(
      'Only a platform administrator may grant or manage PLATFORM_ADMIN',
      'ROLE_FORBIDDEN',
    );
  }
};

const existing = async (tx: Tx, tenantId: string, id: string) => {
  const user = await findUser(tx, tenantId, id);
  if (!user) throw new NotFoundError('No such user', 'USER_NOT_FOUND');
  return user;
};

/** User management within a tenant (TENANT_ADMIN) or in any tenant (PLATFORM_ADMIN, audited; ADR 0104). */
export class UsersService {
  constructor(private readonly d: UsersServiceDeps) {}

  /** Runs `fn` in the target tenant; another tenant than the caller's is a platform-admin-only, audited path. */
  private async inTenant<T>(
    ctx: RequestContext,
    requested: string | undefined,
    action: string,
    fn: (tx: Tx, tenantId: string) => Promise<T>,
  ): Promise<T> {
    const d = this.d;
    const tenantId = requested ?? ctx.tenantId;
    if (tenantId === ctx.tenantId) return d.db.withTenant(tenantId, (tx) => fn(tx, tenantId));
    if (!isPlatformAdmin(ctx))
      throw new ForbiddenError(
        'Only a platform administrator may act in another tenant',
        'CROSS_TENANT_FORBIDDEN',
      );
    return d.db.withTenant(tenantId, async (tx) => {
      const result = await fn(tx, tenantId);
      await d.audit.record(
        {
          type: 'CROSS_TENANT_ACCESS',
          tenantId,
          userId: ctx.userId,
          ip: ctx.ip,
          requestId: ctx.requestId,
          detail: { action, callerTenantId: ctx.tenantId },
        },
        tx,
      );
      return result;
    });
  }

  list(
    ctx: RequestContext,
    tenantId: string | undefined,
    page: { limit: number; offset: number },
  ): Promise<UserView[]> {
    return this.inTenant(ctx, tenantId, 'users.list', async (tx, t) =>
      (await listUsers(tx, t, page)).map(toUserView),
    );
  }

  get(ctx: RequestContext, tenantId: string | undefined, id: string): Promise<UserView> {
    return this.inTenant(ctx, tenantId, 'users.get', async (tx, t) => toUserView(await existing(tx, t, id)));
  }

  async create(ctx: RequestContext, body: CreateUserRequest): Promise<UserView> {
    const d = this.d;
    assertNewPassword(body.password);
    assertMayManage(ctx, body.roles);
    const passwordHash = await d.hasher.hash(body.password);
    const now = d.clock();
    try {
      return await this.inTenant(ctx, body.tenantId, 'users.create', async (tx, tenantId) => {
        const user: UserRecord = {
          tenantId,
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
    ctx: RequestContext,
    tenantId: string | undefined,
    id: string,
    body: UpdateUserRequest,
  ): Promise<UserView> {
    const d = this.d;
    if (body.password !== undefined) assertNewPassword(body.password);
    if (body.roles) assertMayManage(ctx, body.roles);
    const passwordHash = body.password === undefined ? undefined : await d.hasher.hash(body.password);
    return this.inTenant(ctx, tenantId, 'users.update', async (tx, t) => {
      assertMayManage(ctx, (await existing(tx, t, id)).roles);
      const now = d.clock();
      const updated = await updateUser(tx, t, id, {
        ...(passwordHash ? { passwordHash } : {}),
        ...(body.roles ? { roles: [...body.roles] } : {}),
        updatedAt: now,
      });
      // New credentials or roles: sessions started under the old ones end at their next refresh.
      await d.revokeSessions(tx, t, id, now);
      return toUserView(updated!);
    });
  }

  remove(ctx: RequestContext, tenantId: string | undefined, id: string): Promise<void> {
    return this.inTenant(ctx, tenantId, 'users.delete', async (tx, t) => {
      assertMayManage(ctx, (await existing(tx, t, id)).roles);
      await deleteUser(tx, t, id);
    });
  }
}
