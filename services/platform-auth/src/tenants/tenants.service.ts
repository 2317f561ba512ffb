import type { Database, Tx } from '@care/db';
import type { AuthEventView, Static, TenantView as TenantViewSchema } from '@care/contracts';
import { ConflictError, NotFoundError, type Caller } from '@care/service-kit';
import type { AuditTrail, ClientInfo } from '../audit/audit.service';
import { listAuthEvents } from '../audit/audit.repository';
import { FOREIGN_KEY_VIOLATION, RESTRICT_VIOLATION, sqlState, UNIQUE_VIOLATION } from '../db/db-errors';
import {
  deleteTenant,
  findTenant,
  insertTenant,
  listTenants,
  updateTenant,
  type TenantRecord,
} from './tenants.repository';

type TenantView = Static<typeof TenantViewSchema>;

const view = (t: TenantRecord): TenantView => ({
  id: t.id,
  name: t.name,
  createdAt: t.createdAt.toISOString(),
  updatedAt: t.updatedAt.toISOString(),
});
const notFound = () => new NotFoundError('No such tenant', 'TENANT_NOT_FOUND');

/** Tenant management (PLATFORM_ADMIN): the cross-tenant system path, every call audited (ADR 0104). */
export class TenantsService {
  constructor(private readonly d: { db: Database; audit: AuditTrail; clock: () => Date }) {}

  /** `withSystem` (no RLS) plus an audit record in the same transaction. */
  private system<T>(
    caller: Caller,
    client: ClientInfo,
    action: string,
    target: string | null,
    fn: (tx: Tx) => Promise<T>,
  ): Promise<T> {
    return this.d.db.withSystem(async (tx) => {
      const result = await fn(tx);
      await this.d.audit.record(
        {
          type: 'SYSTEM_ACCESS',
          tenantId: target,
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

  list(caller: Caller, client: ClientInfo, page: { limit: number; offset: number }): Promise<TenantView[]> {
    return this.system(caller, client, 'tenants.list', null, async (tx) =>
      (await listTenants(tx, page)).map(view),
    );
  }

  get(caller: Caller, client: ClientInfo, id: string): Promise<TenantView> {
    return this.system(caller, client, 'tenants.get', id, async (tx) => {
      const t = await findTenant(tx, id);
      if (!t) throw notFound();
      return view(t);
    });
  }

  async create(caller: Caller, client: ClientInfo, body: { id: string; name: string }): Promise<TenantView> {
    const now = this.d.clock();
    const row = { id: body.id, name: body.name, createdAt: now, updatedAt: now };
    try {
      await this.system(caller, client, 'tenants.create', body.id, (tx) => insertTenant(tx, row));
    } catch (err) {
      if (sqlState(err) === UNIQUE_VIOLATION)
        throw new ConflictError('A tenant with this id exists', 'TENANT_EXISTS');
      throw err;
    }
    return view(row);
  }

  rename(caller: Caller, client: ClientInfo, id: string, name: string): Promise<TenantView> {
    return this.system(caller, client, 'tenants.update', id, async (tx) => {
      const t = await updateTenant(tx, id, name, this.d.clock());
      if (!t) throw notFound();
      return view(t);
    });
  }

  async remove(caller: Caller, client: ClientInfo, id: string): Promise<void> {
    try {
      await this.system(caller, client, 'tenants.delete', id, async (tx) => {
        if (!(await deleteTenant(tx, id))) throw notFound();
      });
    } catch (err) {
      if ([FOREIGN_KEY_VIOLATION, RESTRICT_VIOLATION].includes(sqlState(err) ?? ''))
        throw new ConflictError('The tenant still has users; delete them first', 'TENANT_HAS_USERS');
      throw err;
    }
  }

  /** The tenant's audit trail, newest first. */
  async auditEvents(
    caller: Caller,
    client: ClientInfo,
    id: string,
    limit: number,
  ): Promise<Static<typeof AuthEventView>[]> {
    const events = await this.system(caller, client, 'tenants.audit-events', id, (tx) =>
      listAuthEvents(tx, { tenantId: id, limit }),
    );
    return events.map((e) => ({ ...e, occurredAt: e.occurredAt.toISOString() }));
  }
}
