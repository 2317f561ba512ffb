import { sql } from 'drizzle-orm';
import { DatabaseConfigError, UnsafeRuntimeRoleError } from './database.errors';
import type { Db, Tx } from './database.types';
import { assertIdentifier, assertRoleName } from './identifier';

/** Options of `assertSafeRuntimeRole`. */
export interface SafeRoleOptions {
  /** Schema whose tables the role must not own; default `public`. */
  schema?: string;
}

interface RoleFacts extends Record<string, unknown> {
  rolsuper: boolean;
  rolbypassrls: boolean;
  elevated_via: string[] | null;
  owned: string[] | null;
}

/**
 * Fails with `UnsafeRuntimeRoleError` when `runtimeRole` could see past row-level security: it is superuser or
 * BYPASSRLS, is a member of a role that is, or owns (directly or through membership) a table, view or foreign
 * table in the schema. Owners skip non-forced RLS and can drop policies, so any of these breaks tenant isolation.
 * Throws `DatabaseConfigError` when the role does not exist.
 */
export async function assertSafeRuntimeRole(
  db: Db | Tx,
  runtimeRole: string,
  opts: SafeRoleOptions = {},
): Promise<void> {
  const role = assertRoleName(runtimeRole);
  const schema = assertIdentifier(opts.schema ?? 'public', 'schema');
  const result = await db.execute<RoleFacts>(sql`
    select r.rolsuper, r.rolbypassrls,
      (select array_agg(s.rolname::text order by s.rolname) from pg_catalog.pg_roles s
        where s.oid <> r.oid and (s.rolsuper or s.rolbypassrls) and pg_catalog.pg_has_role(r.oid, s.oid, 'MEMBER')) as elevated_via,
      (select array_agg((n.nspname || '.' || c.relname)::text order by c.relname) from pg_catalog.pg_class c
        join pg_catalog.pg_namespace n on n.oid = c.relnamespace
        where n.nspname = ${schema} and c.relkind in ('r', 'p', 'v', 'm', 'f')
          and pg_catalog.pg_has_role(r.oid, c.relowner, 'MEMBER')) as owned
    from pg_catalog.pg_roles r where r.rolname = ${role}`);
  const facts = result.rows[0];
  if (!facts) throw new DatabaseConfigError(`runtime role ${role} does not exist`);
  // A superuser counts as a member of every role, so the membership findings would only repeat this one.
  const reasons: string[] = facts.rolsuper ? ['is a superuser (superusers ignore row-level security)'] : [];
  if (!facts.rolsuper && facts.rolbypassrls) reasons.push('has BYPASSRLS');
  if (!facts.rolsuper && facts.elevated_via?.length)
    reasons.push(`is a member of superuser/BYPASSRLS role(s): ${facts.elevated_via.join(', ')}`);
  if (!facts.rolsuper && facts.owned?.length)
    reasons.push(`owns (or is a member of the owner of): ${facts.owned.join(', ')}`);
  if (reasons.length > 0) {
    throw new UnsafeRuntimeRoleError(
      `runtime role ${role} is unsafe for tenant isolation: ${reasons.join('; ')}`,
      reasons,
    );
  }
}
