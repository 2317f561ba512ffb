import path from 'node:path';
import { openDatabase, type Database, type DatabaseLogger } from '@care/db';

/** Folder of the drizzle migrations, the same from src/ and dist/ (both two levels below the package). */
export const MIGRATIONS_FOLDER = path.join(__dirname, '..', '..', 'drizzle');
/** The NOLOGIN role tenant transactions run as. */
export const RUNTIME_ROLE = 'care_memory_app';

/** Opens and migrates the memory database (pgvector loaded on PGlite). */
export function openMemoryDatabase(opts: {
  uri?: string;
  dataDir?: string;
  logger?: DatabaseLogger;
  poolSize?: number;
  /** Embedded database only: PostgreSQL `shared_buffers` (PGLITE_SHARED_BUFFERS); unset keeps 128MB. */
  sharedBuffers?: string;
  /** `pglite://memory` only: start from a `dumpDataDir()` tarball (the latency bench's BENCH_DATA_DIR cache). */
  loadDataDir?: Blob;
}): Promise<Database> {
  return openDatabase({
    uri: opts.uri,
    dataDir: opts.dataDir,
    appName: 'memory',
    migrationsFolder: MIGRATIONS_FOLDER,
    runtimeRole: RUNTIME_ROLE,
    extensions: ['vector'],
    poolSize: opts.poolSize,
    pgliteSharedBuffers: opts.sharedBuffers,
    pgliteLoadDataDir: opts.loadDataDir,
    logger: opts.logger,
  });
}
