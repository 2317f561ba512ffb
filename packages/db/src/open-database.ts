import { sql } from 'drizzle-orm';
import { redactUri, resolveDatabaseTarget } from './database-uri';
import type { DatabaseKind, Db, Tx } from './database.types';
import { DatabaseConfigError, MissingExtensionError } from './database.errors';
import { assertRoleName } from './identifier';
import { openPglite, type OpenedDriver } from './pglite.driver';
import { openPostgres } from './postgres.driver';
import { ensureRoleSql } from './rls.sql';
import { assertSafeRuntimeRole } from './runtime-role.guard';
import { createTransactionRunners, type TenantTx } from './tenant.transactions';

/** Minimal logger shape (pino and console both fit). */
export interface DatabaseLogger {
  info: (...a: unknown[]) => void;
  warn: (...a: unknown[]) => void;
}

/** Settings of `openDatabase`; a service fills them from its config (`DATABASE_URI`, `DATA_DIR`). */
export interface OpenDatabaseOptions {
  /** `DATABASE_URI`: unset -> PGlite in `dataDir`; `pglite://memory`; `postgres://` / `postgresql://`. */
  uri?: string;
  /** Folder of the file-backed PGlite (parents are created); default `.data/<appName>`. */
  dataDir?: string;
  /** Service name, e.g. `platform-auth`: default data folder and the server's `application_name`. */
  appName: string;
  /** The service's drizzle-kit output folder (generated and custom SQL migrations, `meta/_journal.json`). */
  migrationsFolder: string;
  /** NOLOGIN role tenant transactions run as, e.g. `care_auth_app`; a lower-case identifier. */
  runtimeRole: string;
  /**
   * Extensions the migrations need (`vector` = pgvector): PGlite loads them; on a server, opening fails with
   * `MissingExtensionError` when the server does not offer one. `CREATE EXTENSION` belongs in a migration.
   */
  extensions?: Array<'vector'>;
  /**
   * PGlite only: PostgreSQL's `shared_buffers` (`512MB`, `1GB`, `65536kB`); unset keeps PostgreSQL's 128MB. The
   * buffers are allocated when the engine starts, so the process's RSS grows by about this much.
   */
  pgliteSharedBuffers?: string;
  /**
   * PGlite in memory only (`pglite://memory`): start from this data folder, a tarball from PGlite's
   * `dumpDataDir()` (benchmarks reuse a populated database this way); migrations still run on it.
   */
  pgliteLoadDataDir?: Blob;
  /** Server only: maximum pooled connections (default 10). */
  poolSize?: number;
  /** Where to report opening and pool errors. */
  logger?: DatabaseLogger;
  /**
   * PGlite in a folder only: called if this process loses the folder's lock (it could not refresh it, or another
   * process took it over). Default: throw, which ends the process rather than risk two writers.
   */
  onDataDirLockLost?: (err: Error) => void;
}

/** An open, migrated database with tenant-scoped and system transactions. */
export interface Database {
  kind: DatabaseKind;
  /** Plain drizzle handle running as the owner: migrations-level access, no tenant scope. Prefer the runners. */
  db: Db;
  /**
   * Runs `fn` in a transaction as the runtime role with `app.tenant_id` = `tenantId`, so RLS shows and accepts
   * only that tenant's rows. Blank ids are rejected with `TenantRequiredError`. Do not nest: use `tx`, which
   * carries the tenant (`tx.tenantId`) so repository functions need not take it again.
   */
  withTenant<T>(tenantId: string, fn: (tx: TenantTx) => Promise<T>): Promise<T>;
  /** Runs `fn` in a transaction as the owner, across tenants: for platform-admin and system jobs (caller audits). */
  withSystem<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Readiness check: `select 1`, rejects when the database is unreachable. */
  ping(): Promise<void>;
  /** Closes the pool or the embedded engine; safe to call twice. */
  close(): Promise<void>;
}

/**
 * Opens the database `opts.uri` names, creates the runtime role if missing, applies the service's drizzle
 * migrations, then refuses to return (`UnsafeRuntimeRoleError`) unless the runtime role is safe for RLS.
 */
export async function openDatabase(opts: OpenDatabaseOptions): Promise<Database> {
  const runtimeRole = assertRoleName(opts.runtimeRole);
  if (!opts.appName) throw new DatabaseConfigError('appName is required');
  if (!opts.migrationsFolder) throw new DatabaseConfigError('migrationsFolder is required');
  const target = resolveDatabaseTarget(opts.uri, opts.dataDir, opts.appName);
  const logger = opts.logger;
  const driver: OpenedDriver =
    target.kind === 'pglite'
      ? await openPglite(target.dataDir, opts.extensions ?? [], {
          sharedBuffers: checkSharedBuffers(opts.pgliteSharedBuffers),
          loadDataDir: target.dataDir === undefined ? opts.pgliteLoadDataDir : undefined,
          onLockLost: opts.onDataDirLockLost,
        })
      : await openPostgres({
          uri: target.uri,
          appName: opts.appName,
          poolSize: opts.poolSize,
          onPoolError: (err) => logger?.warn({ err: err.message }, 'idle database connection failed'),
        });
  try {
    if (target.kind === 'postgres')
      await assertExtensionsAvailable(driver.db, opts.extensions ?? [], opts.appName);
    await driver.migrate(opts.migrationsFolder, async (db) => {
      await db.execute(sql.raw(ensureRoleSql(runtimeRole)));
    });
    await assertSafeRuntimeRole(driver.db, runtimeRole);
  } catch (err) {
    await driver.close().catch(() => undefined);
    throw err;
  }
  const where = target.kind === 'postgres' ? redactUri(target.uri) : (target.dataDir ?? 'memory');
  logger?.info({ kind: target.kind, where, runtimeRole }, 'database ready');
  const runners = createTransactionRunners(driver.db, runtimeRole);
  return {
    kind: target.kind,
    db: driver.db,
    withTenant: runners.withTenant,
    withSystem: runners.withSystem,
    async ping() {
      await driver.db.execute(sql`select 1`);
    },
    close: () => driver.close(),
  };
}

/** A `shared_buffers` size PostgreSQL accepts: a positive integer and a unit, nothing else reaches the config. */
function checkSharedBuffers(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9][0-9]{0,7}(kB|MB|GB)$/.test(value)) {
    throw new DatabaseConfigError(
      `pgliteSharedBuffers must be a size such as 512MB (got ${JSON.stringify(value.slice(0, 32))})`,
    );
  }
  return value;
}

/** Fails with {@link MissingExtensionError} unless the server can `CREATE EXTENSION` each of `names`. */
async function assertExtensionsAvailable(
  db: Db,
  names: ReadonlyArray<string>,
  appName: string,
): Promise<void> {
  for (const name of names) {
    const found = await db.execute<{ name: string }>(
      sql`select name from pg_available_extensions where name = ${name}`,
    );
    if (found.rows.length === 0) throw new MissingExtensionError(name, appName);
  }
}
