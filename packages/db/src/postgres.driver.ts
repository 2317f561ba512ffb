import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { Pool } from 'pg';
import type { OpenedDriver } from './pglite.driver';

// Replicas starting together must not both apply the same migration. Advisory lock keys are scoped to the
// current database, so one constant serves every service (each has its own database).
const MIGRATION_LOCK_KEY = 7_340_211;
const CONNECT_TIMEOUT_MS = 10_000;

/** Settings of `openPostgres`. */
export interface PostgresOptions {
  uri: string;
  appName: string;
  poolSize?: number;
  onPoolError: (err: Error) => void;
}

/** Opens a node-postgres pool; migrations run on one dedicated connection under an advisory lock. */
export async function openPostgres(opts: PostgresOptions): Promise<OpenedDriver> {
  const pool = new Pool({
    connectionString: opts.uri,
    max: opts.poolSize ?? 10,
    application_name: opts.appName,
    // Without a bound, an unreachable server makes startup and readiness checks hang instead of failing.
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  // An idle client dropped by the server emits 'error' on the pool; unhandled, that would kill the process.
  pool.on('error', opts.onPoolError);
  const db = drizzle({ client: pool });
  let closed = false;
  return {
    db,
    async migrate(migrationsFolder, prepare) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        // Session-level lock: it must outlive the migrator's own transaction. Ending the session releases it.
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        const locked = drizzle({ client });
        await prepare(locked);
        await migrate(locked, { migrationsFolder });
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
      } catch (err) {
        broken = err as Error;
        throw err;
      } finally {
        // On failure the connection is discarded rather than reused: that drops the lock and any aborted state.
        client.release(broken);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
