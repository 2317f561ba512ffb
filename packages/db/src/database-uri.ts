import path from 'node:path';
import { DatabaseConfigError } from './database.errors';

/** Where `openDatabase` connects, decided from `DATABASE_URI`. */
export type DatabaseTarget =
  { kind: 'pglite'; dataDir: string | undefined } | { kind: 'postgres'; uri: string };

/** The in-memory PGlite URI (tests, throwaway runs). */
const PGLITE_MEMORY_URI = 'pglite://memory';

/** Shows a URI without its password, for logs and error messages. */
export function redactUri(uri: string): string {
  try {
    const url = new URL(uri);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '<unparseable uri>';
  }
}

/**
 * Maps a `DATABASE_URI` value to a target: unset/blank -> file-backed PGlite in `dataDir` (default
 * `.data/<appName>`), `pglite://memory` -> in-memory PGlite, `postgres://` / `postgresql://` -> server.
 * Anything else, MongoDB included, is a `DatabaseConfigError`.
 */
export function resolveDatabaseTarget(
  uri: string | undefined,
  dataDir: string | undefined,
  appName: string,
): DatabaseTarget {
  const value = uri?.trim();
  if (!value) return { kind: 'pglite', dataDir: path.resolve(dataDir ?? path.join('.data', appName)) };
  if (value === PGLITE_MEMORY_URI) return { kind: 'pglite', dataDir: undefined };
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]?.toLowerCase();
  if (scheme === 'postgres' || scheme === 'postgresql') return { kind: 'postgres', uri: value };
  if (scheme === 'mongodb' || scheme === 'mongodb+srv') {
    throw new DatabaseConfigError(
      'DATABASE_URI points to MongoDB, which is not supported: PostgreSQL is required. Set DATABASE_URI to a postgres:// URI, ' +
        `to ${PGLITE_MEMORY_URI}, or leave it unset for the embedded PostgreSQL (PGlite) under DATA_DIR`,
    );
  }
  throw new DatabaseConfigError(
    `DATABASE_URI ${scheme ? `scheme ${JSON.stringify(scheme)}` : 'without a scheme'} is not supported: use postgres://, ` +
      `postgresql://, ${PGLITE_MEMORY_URI}, or leave it unset for the embedded PostgreSQL (PGlite) under DATA_DIR`,
  );
}
