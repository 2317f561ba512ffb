import fs from 'node:fs';
import path from 'node:path';
import { PGlite, type Extensions } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import type { Db } from './database.types';

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
  settings: { sharedBuffers?: string; loadDataDir?: Blob } = {},
): Promise<OpenedDriver> {
  if (dataDir) fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  const loaded: Extensions = extensions.includes('vector') ? { vector } : {};
  // Checked by the caller (a size and a unit), so the line cannot carry another setting.
  const postgresqlconf = settings.sharedBuffers ? [`shared_buffers = ${settings.sharedBuffers}`] : undefined;
  const client = await PGlite.create(dataDir, {
    extensions: loaded,
    postgresqlconf,
    loadDataDir: settings.loadDataDir,
  });
  const db = drizzle({ client });
  return {
    db,
    async migrate(migrationsFolder, prepare) {
      // One process owns a PGlite data folder, so no cross-process lock is needed here.
      await prepare(db);
      await migrate(db, { migrationsFolder });
    },
    async close() {
      if (!client.closed) await client.close();
    },
  };
}
