// @care/db: DATABASE_URI -> embedded PGlite or PostgreSQL, drizzle migrations, tenant transactions under RLS.
export type { DatabaseKind, Db, Tx } from './database.types';
export {
  DatabaseConfigError,
  DataDirLockedError,
  LOCK_STALE_SECONDS,
  MissingExtensionError,
  TenantRequiredError,
  UnsafeRuntimeRoleError,
} from './database.errors';
export { redactUri, resolveDatabaseTarget, type DatabaseTarget } from './database-uri';
export type { TenantTx } from './tenant.transactions';
export { openDatabase, type Database, type DatabaseLogger, type OpenDatabaseOptions } from './open-database';
export { ensureRoleSql, tenantRlsSql, type TenantRlsOptions } from './rls.sql';
export { assertSafeRuntimeRole, type SafeRoleOptions } from './runtime-role.guard';
