import { sql } from 'drizzle-orm';
import { TenantRequiredError } from './database.errors';
import type { Db, Tx } from './database.types';

// PostgreSQL text cannot hold NUL, and lone surrogates are re-encoded as U+FFFD, which would let two distinct
// ids share one tenant; both are refused with blank ids.
const LONE_SURROGATE = /\p{Cs}/u;

function isUsableTenantId(tenantId: unknown): tenantId is string {
  return (
    typeof tenantId === 'string' &&
    tenantId.trim() !== '' &&
    !tenantId.includes('\u0000') &&
    !LONE_SURROGATE.test(tenantId)
  );
}

/**
 * The transaction `withTenant` hands over: bound to its tenant, so repository functions read the tenant from it
 * instead of taking it again as an argument. A callback typed `(tx: Tx)` still fits.
 */
export type TenantTx = Tx & { readonly tenantId: string };

/** The two ways into a transaction: scoped to one tenant under RLS, or the audited cross-tenant system path. */
export interface TransactionRunners {
  /** See `Database.withTenant`. */
  withTenant<T>(tenantId: string, fn: (tx: TenantTx) => Promise<T>): Promise<T>;
  /** See `Database.withSystem`. */
  withSystem<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
}

/** Binds a new transaction object to its tenant (read-only; each `withTenant` call gets its own transaction). */
function bindTenant(tx: Tx, tenantId: string): TenantTx {
  return Object.defineProperty(tx, 'tenantId', {
    value: tenantId,
    enumerable: false,
    writable: false,
  }) as TenantTx;
}

/**
 * Builds `withTenant` / `withSystem` over a drizzle database. Tenant transactions switch to the runtime role and
 * set `app.tenant_id`, both transaction-local (`is_local = true`), so COMMIT or ROLLBACK restores the pooled
 * connection before anyone else checks it out. `set_config('role', ...)` is `SET LOCAL ROLE` with a bind
 * parameter, which saves a round trip and any identifier quoting.
 */
export function createTransactionRunners(db: Db, runtimeRole: string): TransactionRunners {
  return {
    async withTenant<T>(tenantId: string, fn: (tx: TenantTx) => Promise<T>): Promise<T> {
      if (!isUsableTenantId(tenantId)) throw new TenantRequiredError();
      return db.transaction(async (tx) => {
        await tx.execute(
          sql`select set_config('role', ${runtimeRole}, true), set_config('app.tenant_id', ${tenantId}, true)`,
        );
        return fn(bindTenant(tx, tenantId));
      });
    },
    async withSystem<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
      return db.transaction(fn);
    },
  };
}
