import { createServerTestDatabase, serverTestUri } from '@care/db/testing';

/** Something a test opens on an engine and closes afterwards (a service's `Database`). */
export interface Closable {
  close(): Promise<void>;
}

interface JestDescribe {
  (title: string, body: () => void): void;
  skip(title: string, body: () => void): void;
}

/** A database engine a suite runs against. */
export interface TestEngine {
  /** `PGlite` (in memory) or `PostgreSQL server` (a throwaway database on `TEST_DATABASE_URI`). */
  readonly name: 'PGlite' | 'PostgreSQL server';
  readonly kind: 'pglite' | 'server';
  /** A fresh database: its URI and how to remove it (nothing to remove for PGlite). */
  createDatabase(): Promise<{ uri: string; drop(): Promise<void> }>;
  /** Opens a fresh database with the service's opener; `close` closes it and drops a server database. */
  open<D extends Closable>(
    openAt: (uri: string) => Promise<D>,
  ): Promise<{ database: D; close(): Promise<void> }>;
}

function engine(name: TestEngine['name'], createDatabase: TestEngine['createDatabase']): TestEngine {
  return {
    name,
    kind: name === 'PGlite' ? 'pglite' : 'server',
    createDatabase,
    async open(openAt) {
      const created = await createDatabase();
      let database;
      try {
        database = await openAt(created.uri);
      } catch (err) {
        await created.drop();
        throw err;
      }
      const opened = database;
      return {
        database: opened,
        async close() {
          await opened.close();
          await created.drop();
        },
      };
    },
  };
}

/** In-memory PGlite: every database is new and private to its opener. */
export const pgliteEngine: TestEngine = engine('PGlite', async () => ({
  uri: 'pglite://memory',
  drop: async () => undefined,
}));

/** The PostgreSQL server at `baseUri`: each database is a new `test_<random>` database, dropped on close. */
export function serverEngine(baseUri: string): TestEngine {
  return engine('PostgreSQL server', () => createServerTestDatabase(baseUri));
}

/**
 * The engines of "both engines" suites: PGlite always, the PostgreSQL server when `TEST_DATABASE_URI` is set
 * (otherwise a notice that server tests are skipped is printed once).
 */
export function testEngines(): TestEngine[] {
  const uri = serverTestUri();
  return uri ? [pgliteEngine, serverEngine(uri)] : [pgliteEngine];
}

/**
 * Declares `suite` once per engine, titled `<title> [PGlite]` / `<title> [PostgreSQL server]`; without
 * `TEST_DATABASE_URI` the server suite is declared skipped, its title giving the reason.
 */
export function describeEachEngine(title: string, suite: (engine: TestEngine) => void): void {
  // jest's globals, read at call time: this module is also compiled without jest's types.
  const { describe } = globalThis as unknown as { describe: JestDescribe };
  describe(`${title} [PGlite]`, () => suite(pgliteEngine));
  const uri = serverTestUri();
  if (uri) describe(`${title} [PostgreSQL server]`, () => suite(serverEngine(uri)));
  else describe.skip(`${title} [PostgreSQL server] (TEST_DATABASE_URI not set)`, () => suite(pgliteEngine));
}
