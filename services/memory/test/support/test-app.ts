// Builds the memory app over a real PGlite for component tests: one database per test file, a clock the
// test moves, and the deterministic hashing provider unless a test passes another.
import type { Express } from 'express';
import type { Database } from '@care/db';
import { createLogger, type Metrics } from '@care/service-kit';
import { TestClock } from '@care/service-kit/testing';
import { createApp, createAppDeps, type AppDeps, type AppRuntime } from '../../src/app';
import { loadMemoryConfig, type Config } from '../../src/config';
import { openMemoryDatabase } from '../../src/db/open-database';
import { VectorIndexes } from '../../src/db/vector-index';
import type { EmbeddingProvider } from '../../src/embeddings/embedding-provider';
import { HashingEmbeddingProvider } from '../../src/embeddings/hashing.provider';

/** When the test clock starts (tests that sign tokens issue them at that time). */
export const TEST_START = new Date('2030-01-01T00:00:00Z');

/** A clock tests set and move, at {@link TEST_START}. */
export function testClock(): TestClock {
  return new TestClock(TEST_START);
}

/** Test config: defaults plus overrides, background loops off. */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadMemoryConfig({
    REMINDER_POLL_MS: '0',
    REFLECT_INTERVAL_SECONDS: '0',
    LOG_LEVEL: 'silent',
    ...env,
  });
}

/** Opens a migrated database: ephemeral PGlite by default, or the server `uri` names. */
export function openTestDatabase(uri = 'pglite://memory'): Promise<Database> {
  return openMemoryDatabase({ uri });
}

/** Opens the file-backed embedded database in `dataDir` (DATABASE_URI unset), as the service does by default. */
export function openFileDatabase(dataDir: string): Promise<Database> {
  return openMemoryDatabase({ uri: undefined, dataDir });
}

/** An app over `database` with its dependencies (for services the HTTP API does not expose, like schedulers). */
export function buildApp(
  database: Database,
  options: {
    env?: Record<string, string>;
    embeddings?: EmbeddingProvider;
    clock?: TestClock;
    fusion?: AppRuntime['fusion'];
    metrics?: Metrics;
  } = {},
): { app: Express; deps: AppDeps; clock: TestClock; config: Config } {
  const config = testConfig(options.env);
  const clock = options.clock ?? testClock();
  const deps = createAppDeps({
    config,
    logger: createLogger({ name: 'memory-test', level: 'silent' }),
    database,
    embeddings: options.embeddings ?? new HashingEmbeddingProvider(64),
    clock: clock.now,
    indexes: new VectorIndexes(database.db),
    version: '9.9.9-test',
    fusion: options.fusion,
    metrics: options.metrics,
  });
  return { app: createApp(deps), deps, clock, config };
}
