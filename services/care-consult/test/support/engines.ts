import type { Database } from '@care/db';
import { createServerTestDatabase, serverTestUri } from '@care/db/testing';
import { openCareConsultDatabase } from '../../src/db/open-database';

/** A database engine an API suite runs against. */
export interface Engine {
  name: string;
  /** Opens a fresh, migrated database; `close` also drops a server database. */
  open(): Promise<{ database: Database; close(): Promise<void> }>;
}

/**
 * The engines of "both engines" suites: embedded PGlite always, and the PostgreSQL server when
 * TEST_DATABASE_URI is set (otherwise @care/db prints a notice that server tests are skipped).
 */
export function engines(): Engine[] {
  const list: Engine[] = [
    {
      name: 'PGlite',
      open: async () => {
        const database = await openCareConsultDatabase({ uri: 'pglite://memory' });
        return { database, close: () => database.close() };
      },
    },
  ];
  const base = serverTestUri();
  if (base) {
    list.push({
      name: 'PostgreSQL server',
      open: async () => {
        const server = await createServerTestDatabase(base);
        const database = await openCareConsultDatabase({ uri: server.uri });
        return {
          database,
          close: async () => {
            await database.close();
            await server.drop();
          },
        };
      },
    });
  }
  return list;
}
