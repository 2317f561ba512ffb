// @care/db/testing: helpers for tests that run against a real PostgreSQL server.
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { assertIdentifier } from './identifier';

/** A throwaway database on the test server. */
export interface ServerTestDatabase {
  /** Connection URI of the new database (same credentials as the base URI). */
  uri: string;
  /** Database name, `test_<random>`. */
  name: string;
  /** Drops the database, disconnecting any session still using it. Safe to call twice. */
  drop(): Promise<void>;
}

/** Options of `createServerTestDatabase`. */
export interface ServerTestDatabaseOptions {
  /** Existing role to own the new database (to test as a non-superuser owner); default the connecting user. */
  owner?: string;
}

async function withClient<T>(uri: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: uri, application_name: 'care-db-testing' });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Creates a uniquely named database (`CREATE DATABASE test_<random>`) on the server `baseUri` points at, so
 * parallel suites never share tables. Close your pools before `drop()`; it forces leftovers off anyway.
 */
export async function createServerTestDatabase(
  baseUri: string,
  opts: ServerTestDatabaseOptions = {},
): Promise<ServerTestDatabase> {
  const name = `test_${randomBytes(8).toString('hex')}`;
  const owner = opts.owner === undefined ? '' : ` OWNER ${assertIdentifier(opts.owner, 'owner')}`;
  await withClient(baseUri, (client) => client.query(`CREATE DATABASE ${name}${owner}`));
  const url = new URL(baseUri);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    uri: url.toString(),
    name,
    async drop() {
      if (dropped) return;
      dropped = true;
      await withClient(baseUri, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

let warned = false;

/**
 * `TEST_DATABASE_URI` when set, else undefined after printing (once per process) that server-backed tests are
 * skipped, so a skipped suite is never silent.
 */
export function serverTestUri(): string | undefined {
  const uri = process.env.TEST_DATABASE_URI?.trim();
  if (uri) return uri;
  if (!warned) {
    warned = true;
    console.warn(
      'TEST_DATABASE_URI is not set: PostgreSQL server tests are skipped (PGlite tests still run)',
    );
  }
  return undefined;
}
