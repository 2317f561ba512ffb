import path from 'node:path';
import { openDatabase, type Database, type DatabaseLogger } from '@care/db';

/** NOLOGIN role tenant transactions run as; RLS policies apply to it. */
const RUNTIME_ROLE = 'care_consult_app';

/** The service's drizzle migrations, the same path from `src/` and `dist/`. */
const MIGRATIONS_FOLDER = path.resolve(__dirname, '..', '..', 'drizzle');

/** Opens and migrates care-consult's database (`DATABASE_URI`: unset -> PGlite in DATA_DIR, `pglite://memory`, `postgres://`). */
export function openCareConsultDatabase(opts: {
  uri?: string;
  dataDir?: string;
  logger?: DatabaseLogger;
}): Promise<Database> {
  return openDatabase({
    uri: opts.uri,
    dataDir: opts.dataDir,
    appName: 'care-consult',
    migrationsFolder: MIGRATIONS_FOLDER,
    runtimeRole: RUNTIME_ROLE,
    logger: opts.logger,
  });
}
