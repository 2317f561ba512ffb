// Test harness: one database per test file (PGlite in memory, or a throwaway database on the server), apps
// built on it through createAppDeps and createApp with test configuration, and a clock the tests can move.
// Engines, the clock and token signing come from @care/service-kit/testing.
import path from 'node:path';
import type { Express } from 'express';
import { openDatabase, type Database } from '@care/db';
import { createLogger } from '@care/service-kit';
import { pgliteEngine, TEST_JWT_SECRET, TestClock, type TestEngine } from '@care/service-kit/testing';
import { createApp, createAppDeps, type AppRuntime } from '../../src/app';
import { loadAuthConfig, type Config } from '../../src/config';
import { PasswordHasher } from '../../src/users/password-hasher';

export const MIGRATIONS = path.join(__dirname, '..', '..', 'drizzle');

/** An open test database and how to dispose of it. */
export interface TestDb {
  db: Database;
  close(): Promise<void>;
}

/** Opens a migrated database on the chosen engine (a server database is dropped on close). */
export async function openTestDb(engine: TestEngine = pgliteEngine): Promise<TestDb> {
  const { database, close } = await engine.open((uri) =>
    openDatabase({
      uri,
      appName: 'platform-auth',
      migrationsFolder: MIGRATIONS,
      runtimeRole: 'care_auth_app',
      poolSize: 4,
    }),
  );
  return { db: database, close };
}

/** Test configuration: bcrypt cost 4, silent logs, in-memory database; overrides win. */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadAuthConfig({
    JWT_SECRET: TEST_JWT_SECRET,
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
