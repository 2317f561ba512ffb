import path from 'node:path';
import { openDatabase, type Database } from '@care/db';
import type { Logger } from '@care/service-kit';
import type { Config } from '../config';

/** Path of the committed drizzle migrations (same from src/ and dist/). */
const MIGRATIONS_FOLDER = path.join(__dirname, '..', '..', 'drizzle');
/** The NOLOGIN role tenant transactions run as. */
const RUNTIME_ROLE = 'care_auth_app';

/** Opens (and migrates) platform-auth's database: embedded PGlite under DATA_DIR, or the server of DATABASE_URI. */
export function openAuthDatabase(
  config: Pick<Config, 'DATABASE_URI' | 'DATA_DIR'>,
  logger: Logger,
): Promise<Database> {
  return openDatabase({
    uri: config.DATABASE_URI,
    dataDir: config.DATA_DIR,
    appName: 'platform-auth',
    migrationsFolder: MIGRATIONS_FOLDER,
    runtimeRole: RUNTIME_ROLE,
    logger,
  });
}
