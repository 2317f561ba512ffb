// Test harness: one database per test file (PGlite in memory, or a throwaway database on the server), apps
// built on it through createApp with test configuration, and a clock the tests can move.
import path from 'node:path';
import jwt from 'jsonwebtoken';
import type { Express } from 'express';
import { openDatabase, type Database } from '@care/db';
import { createServerTestDatabase, serverTestUri, type ServerTestDatabase } from '@care/db/testing';
import { createLogger } from '@care/service-kit';
import { createApp, createAppDeps, type AppRuntime } from '../../src/app';
import { loadAuthConfig, type Config } from '../../src/config';
import { PasswordHasher } from '../../src/users/password-hasher';

export const MIGRATIONS = path.join(__dirname, '..', '..', 'drizzle');
export const TEST_SECRET = 'test-secret-of-at-least-thirty-two-bytes!';

/** Engines a suite runs on: PGlite always, the server when TEST_DATABASE_URI is set (else a printed notice). */
export function engines(): Array<'pglite' | 'server'> {
  return serverTestUri() ? ['pglite', 'server'] : ['pglite'];
}

/** An open test database and how to dispose of it. */
export interface TestDb {
  db: Database;
  close(): Promise<void>;
}

/** Opens a migrated database on the chosen engine. */
export async function openTestDb(engine: 'pglite' | 'server' = 'pglite'): Promise<TestDb> {
  let server: ServerTestDatabase | undefined;
  let uri = 'pglite://memory';
  if (engine === 'server') {
    server = await createServerTestDatabase(serverTestUri()!);
    uri = server.uri;
  }
  const db = await openDatabase({
    uri,
    appName: 'platform-auth',
    migrationsFolder: MIGRATIONS,
    runtimeRole: 'care_auth_app',
    poolSize: 4,
  });
  return {
    db,
    async close() {
      await db.close();
      await server?.drop();
    },
  };
}

/** A clock tests can move. */
export class TestClock {
  private t = Date.now();
  now = (): Date => new Date(this.t);
  advance(seconds: number): void {
    this.t += seconds * 1000;
  }
}

/** Test configuration: bcrypt cost 4, silent logs, in-memory database; overrides win. */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadAuthConfig({
    JWT_SECRET: TEST_SECRET,
    BCRYPT_COST: '4',
    LOG_LEVEL: 'silent',
    DATABASE_URI: 'pglite://memory',
    ...env,
  });
}

/** One app over a test database. */
export interface TestApp {
  app: Express;
  config: Config;
  clock: TestClock;
  hasher: PasswordHasher;
}

/** Builds an app over `db` with test configuration. */
export function buildApp(
  db: Database,
  env: Record<string, string> = {},
  extra: Partial<AppRuntime> = {},
): TestApp {
  const config = testConfig(env);
  const clock = new TestClock();
  const hasher = new PasswordHasher(config.BCRYPT_COST);
  const app = createApp(
    createAppDeps({
      config,
      db,
      logger: createLogger({ name: 'test', level: 'silent' }),
      clock: clock.now,
      hasher,
      env: { HOME: '/x', SECRET_THING: 's3cr3t' },
      ...extra,
    }),
  );
  return { app, config, clock, hasher };
}

/** Signs an access token the way platform-auth does, with overridable claims and options. */
export function signToken(
  claims: Record<string, unknown>,
  opts: jwt.SignOptions = {},
  secret = TEST_SECRET,
): string {
  return jwt.sign(claims, secret, {
    algorithm: 'HS256',
    issuer: 'care-platform',
    audience: 'care-platform',
    expiresIn: 300,
    ...opts,
  });
}
