import { assertIdentifier, assertRoleName, assertTableName } from './identifier';

// drizzle's migrator splits a migration file on this marker and sends each part on its own; PGlite's extended
// protocol refuses several statements in one query, so every statement we generate stands alone.
const BREAKPOINT = '\n--> statement-breakpoint\n';

/** Options of `tenantRlsSql`. */
export interface TenantRlsOptions {
  /** Column holding the tenant id; default `tenant_id`. */
  column?: string;
  /** NOLOGIN role that tenant transactions run as (`SET LOCAL ROLE`); receives the DML grants. */
  runtimeRole: string;
}

/**
 * SQL for a drizzle custom migration (`drizzle-kit generate --custom`) that puts a tenant table under row-level
 * security: ENABLE + FORCE RLS; policy `tenant_isolation` (USING and WITH CHECK `column = nullif(current_setting(
 * 'app.tenant_id', true), '')`); policy `system_access` letting the migrating role (the owner, which `withSystem`
 * runs as) through, because FORCE would otherwise lock a non-superuser owner out too; and SELECT, INSERT, UPDATE,
 * DELETE granted to the runtime role. Statements are separated by drizzle's `--> statement-breakpoint`.
 */
export function tenantRlsSql(table: string, opts: TenantRlsOptions): string {
  const name = assertTableName(table);
  const column = assertIdentifier(opts.column ?? 'tenant_id', 'column');
  const role = assertRoleName(opts.runtimeRole);
  const tenantMatches = `${column} = nullif(current_setting('app.tenant_id', true), '')`;
  return [
    `ALTER TABLE ${name} ENABLE ROW LEVEL SECURITY;`,
    `ALTER TABLE ${name} FORCE ROW LEVEL SECURITY;`,
    `DROP POLICY IF EXISTS tenant_isolation ON ${name};`,
    `CREATE POLICY tenant_isolation ON ${name} AS PERMISSIVE FOR ALL TO PUBLIC\n  USING (${tenantMatches})\n  WITH CHECK (${tenantMatches});`,
    `DROP POLICY IF EXISTS system_access ON ${name};`,
    `CREATE POLICY system_access ON ${name} AS PERMISSIVE FOR ALL TO CURRENT_USER USING (true) WITH CHECK (true);`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ${name} TO ${role};`,
  ].join(BREAKPOINT);
}

/**
 * One idempotent statement (a DO block) that creates the runtime role if missing (NOLOGIN NOSUPERUSER
 * NOBYPASSRLS NOCREATEDB NOCREATEROLE), makes the current user a member so it may `SET ROLE` to it, and grants
 * USAGE on schema public. Roles are cluster-global, so a concurrent creation from another database is tolerated.
 */
export function ensureRoleSql(role: string): string {
  const name = assertRoleName(role);
  return `DO $care_role$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = '${name}') THEN
    BEGIN
      CREATE ROLE ${name} NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN
      NULL; -- created meanwhile by another database of the same cluster
    END;
  END IF;
  IF NOT pg_catalog.pg_has_role(current_user, '${name}', 'MEMBER') THEN
    EXECUTE 'GRANT ${name} TO ' || quote_ident(current_user);
  END IF;
  GRANT USAGE ON SCHEMA public TO ${name};
END
$care_role$;`;
}
