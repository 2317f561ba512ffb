// Runs a suite on both engines: in-memory PGlite always, the PostgreSQL server when TEST_DATABASE_URI is set
// (otherwise the server suite is skipped with a printed notice from serverTestUri()).
import path from 'node:path';
import { openDatabase, type Database, type OpenDatabaseOptions } from '../../src';
import { createServerTestDatabase, serverTestUri } from '../../src/testing';

/** The runtime role the fixture migrations grant to. */
export const RUNTIME_ROLE = 'care_db_test_app';

/** The fixture drizzle migrations: notes table + custom RLS migration. */
export const MIGRATIONS = path.join(__dirname, '..', 'fixtures', 'drizzle');

/** One engine under test: opens a fresh, migrated database and removes it afterwards. */
export interface Engine {
  name: 'pglite' | 'postgres';
  open(overrides?: Partial<OpenDatabaseOptions>): Promise<{ database: Database; cleanup(): Promise<void> }>;
}

const pglite: Engine = {
  name: 'pglite',
  async open(overrides = {}) {
    const database = await openDatabase({ ...baseOptions(), uri: 'pglite://memory', ...overrides });
    return { database, cleanup: () => database.close() };
  },
};

function serverEngine(baseUri: string): Engine {
  return {
    name: 'postgres',
    async open(overrides = {}) {
      const server = await createServerTestDatabase(baseUri);
      try {
        const database = await openDatabase({ ...baseOptions(), uri: server.uri, ...overrides });
        return {
          database,
          async cleanup() {
            await database.close();
            await server.drop();
          },
        };
      } catch (err) {
        await server.drop();
        throw err;
      }
    },
  };
}

function baseOptions(): OpenDatabaseOptions {
  return { appName: 'db-test', migrationsFolder: MIGRATIONS, runtimeRole: RUNTIME_ROLE };
}

/** Declares `suite` once per engine; the server one is `describe.skip` when TEST_DATABASE_URI is absent. */
export function describeEachEngine(title: string, suite: (engine: Engine) => void): void {
  describe(`${title} [pglite]`, () => suite(pglite));
  const uri = serverTestUri();
  if (uri) describe(`${title} [postgres]`, () => suite(serverEngine(uri)));
  else describe.skip(`${title} [postgres] (TEST_DATABASE_URI not set)`, () => suite(pglite));
}

/** A short random suffix so tests sharing one database never see each other's rows. */
export function unique(prefix: string): string {
  return `${prefix}-${Math.random().toString(36).slice(2, 10)}`;
}

/** The PostgreSQL error under drizzle's "Failed query" wrapper, for message assertions on both drivers. */
export function pgMessage(err: unknown): string {
  const e = err as { message?: string; cause?: { message?: string } };
  return `${e.message ?? ''} | ${e.cause?.message ?? ''}`;
}
