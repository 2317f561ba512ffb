import type { Database, Tx } from '@care/db';
import { ConflictError, NotFoundError } from '@care/service-kit';
import type { AuditTrail } from '../audit/audit.service';
import { listAuthEvents, type StoredAuthEvent } from '../audit/audit.repository';
import type { RequestContext } from '../security/request-context';
import { FOREIGN_KEY_VIOLATION, RESTRICT_VIOLATION, sqlState, UNIQUE_VIOLATION } from '../shared/db-errors';
import { deleteTenant, findTenant, insertTenant, listTenants, updateTenant, type TenantRecord } from './tenants.repository';

/** API view of a tenant. */
export interface TenantView {
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
}

/** Tenant management (PLATFORM_ADMIN): the cross-tenant system path, every call audited. */
export interface TenantsService {
  list(ctx: RequestContext, page: { limit: number; offset: number }): Promise<TenantView[]>;
  get(ctx: RequestContext, id: string): Promise<TenantView>;
  create(ctx: RequestContext, body: { id: string; name: string }): Promise<TenantView>;
  rename(ctx: RequestContext, id: string, name: string): Promise<TenantView>;
  remove(ctx: RequestContext, id: string): Promise<void>;
  auditEvents(ctx: RequestContext, id: string, limit: number): Promise<StoredAuthEvent[]>;
}

const view = (t: TenantRecord): TenantView => ({ id: t.id, name: t.name, createdAt: t.createdAt.toISOString(), updatedAt: t.updatedAt.toISOString() });
const notFound = () => new NotFoundError('No such tenant', 'TENANT_NOT_FOUND');

/** Creates the tenants service. */
export function createTenantsService(d: { db: Database; audit: AuditTrail; clock: () => Date }): TenantsService {
  /** `withSystem` (no RLS) plus an audit record in the same transaction. */
  const system = <T>(ctx: RequestContext, action: string, target: string | null, fn: (tx: Tx) => Promise<T>): Promise<T> =>
    d.db.withSystem(async (tx) => {
      const result = await fn(tx);
      await d.audit.record({ type: 'SYSTEM_ACCESS', tenantId: target, userId: ctx.userId, ip: ctx.ip, requestId: ctx.requestId, detail: { action, callerTenantId: ctx.tenantId } }, tx);
      return result;
    });

  return {
    list: (ctx, page) => system(ctx, 'tenants.list', null, async (tx) => (await listTenants(tx, page)).map(view)),
    get: (ctx, id) =>
      system(ctx, 'tenants.get', id, async (tx) => {
        const t = await findTenant(tx, id);
        if (!t) throw notFound();
        return view(t);
      }),
    async create(ctx, body) {
      const now = d.clock();
      const row = { id: body.id, name: body.name, createdAt: now, updatedAt: now };
      try {
        await system(ctx, 'tenants.create', body.id, (tx) => insertTenant(tx, row));
      } catch (err) {
        if (sqlState(err) === UNIQUE_VIOLATION) throw new ConflictError('A tenant with this id exists', 'TENANT_EXISTS');
        throw err;
      }
      return view(row);
    },
    rename: (ctx, id, name) =>
      system(ctx, 'tenants.update', id, async (tx) => {
        const t = await updateTenant(tx, id, name, d.clock());
        if (!t) throw notFound();
        return view(t);
      }),
    async remove(ctx, id) {
      try {
        await system(ctx, 'tenants.delete', id, async (tx) => {
          if (!(await deleteTenant(tx, id))) throw notFound();
        });
      } catch (err) {
        if ([FOREIGN_KEY_VIOLATION, RESTRICT_VIOLATION].includes(sqlState(err) ?? '')) throw new ConflictError('The tenant still has users; delete them first', 'TENANT_HAS_USERS');
        throw err;
      }
    },
    auditEvents: (ctx, id, limit) => system(ctx, 'tenants.audit-events', id, (tx) => listAuthEvents(tx, { tenantId: id, limit })),
  };
}
