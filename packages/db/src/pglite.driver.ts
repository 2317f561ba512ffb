import fs from 'node:fs';
import path from 'node:path';
import { PGlite, type Extensions } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { drizzle } from 'drizzle-orm/pglite';
import lockfile from 'proper-lockfile';
import { migrate } from 'drizzle-orm/pglite/migrator';
import type { Db } from './database.types';
import { DataDirLockedError, LOCK_STALE_SECONDS } from './database.errors';

/** How long a lock not refreshed counts as left behind by a dead process (proper-lockfile refreshes at half). */
const LOCK_STALE_MS = LOCK_STALE_SECONDS * 1000;

/** An open embedded PostgreSQL and how to migrate and close it. */
export interface OpenedDriver {
  db: Db;
  /** Runs `prepare` (role creation) then the drizzle migrations, serialised against other openers. */
  migrate(migrationsFolder: string, prepare: (db: Db) => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens PGlite in memory (`dataDir` undefined) or persisted in `dataDir`, creating its parent folders first
 * (PGlite does not). `extensions: ['vector']` loads pgvector; `CREATE EXTENSION` stays the migrations' job so
 * the same migrations also work on a server.
 */
export async function openPglite(
  dataDir: string | undefined,
  extensions: ReadonlyArray<'vector'>,
  settings: { sharedBuffers?: string; loadDataDir?: Blob; onLockLost?: (err: Error) => void } = {},
): Promise<OpenedDriver> {
  // The folder itself is created up front (PGlite accepts an existing folder) so the lock can live inside it: a
  // lock beside it would need a writable parent, which a volume mounted at /data on a read-only root lacks.
  if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
  // PGlite keeps no lock of its own: two processes on one folder would both start, each with its own view of the
  // files, and silently lose each other's writes (ADR 0011). The first holder wins; any other fails here.
  const release = dataDir ? await lockDataDir(dataDir, settings.onLockLost) : undefined;
  const loaded: Extensions = extensions.includes('vector') ? { vector } : {};
  // Checked by the caller (a size and a unit), so the line cannot carry another setting.
  const postgresqlconf = settings.sharedBuffers ? [`shared_buffers = ${settings.sharedBuffers}`] : undefined;
  let client: PGlite;
  try {
    client = await PGlite.create(dataDir, {
      extensions: loaded,
      postgresqlconf,
      loadDataDir: settings.loadDataDir,
    });
  } catch (err) {
    await release?.();
    throw err;
  }
  const db = drizzle({ client });
  return {
    db,
    async migrate(migrationsFolder, prepare) {
      // The data-folder lock taken above makes this process the only opener, so migrations need no other lock.
      await prepare(db);
      await migrate(db, { migrationsFolder });
    },
    async close() {
      if (!client.closed) await client.close();
      await release?.();
    },
  };
}

/**
 * Takes the exclusive lock of `dataDir` (a `.care-db.lock` folder inside it, refreshed every few seconds so a
 * crashed holder's lock goes stale after {@link LOCK_STALE_MS}). Returns the release function; idempotent.
 */
async function lockDataDir(dataDir: string, onLockLost?: (err: Error) => void): Promise<() => Promise<void>> {
  const lockfilePath = path.join(dataDir, '.care-db.lock');
  let unlock: () => Promise<void>;
  try {
    unlock = await lockfile.lock(dataDir, {
      lockfilePath,
      realpath: false,
      stale: LOCK_STALE_MS,
      retries: 0,
      onCompromised: (err) => {
        // Another process may now own the folder: carrying on would risk two writers. The default rethrows,
        // which ends the process; the caller may log first.
        (
          onLockLost ??
          ((e: Error) => {
            throw e;
          })
        )(err);
      },
    });
  } catch (err) {
    if ((err as { code?: string }).code === 'ELOCKED') throw new DataDirLockedError(dataDir, lockfilePath);
    throw err;
  }
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    await unlock().catch(() => undefined);
  };
}
