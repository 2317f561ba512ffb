import fs from 'node:fs';
import path from 'node:path';
import {
  loadConfigOrExit,
  createLogger,
  createMetrics,
  HealthRegistry,
  shutdownDrainMs,
  startManagementServer,
  startServer,
} from '@care/service-kit';
import { createApp, createAppDeps } from './app';
import { listenHost, loadMemoryConfig } from './config';
import { openMemoryDatabase } from './db/open-database';
import { VectorIndexes } from './db/vector-index';
import { BuiltinEmbeddingProvider } from './embeddings/builtin.provider';
import { LexicalIndex } from './recall/lexical-index';
import { createEmbeddingProvider } from './embeddings/create-provider';
import { MonitoredEmbeddingProvider } from './embeddings/monitored.provider';
import { ReflectScheduler } from './reflect/reflect-scheduler';
import { ReminderScheduler } from './reminders/reminder-scheduler';

async function main(): Promise<void> {
  const config = loadConfigOrExit(() => loadMemoryConfig(process.env));
  const logger = createLogger({ name: 'memory', level: config.LOG_LEVEL });
  const version = (
    JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }
  ).version;
  const database = await openMemoryDatabase({
    uri: config.DATABASE_URI,
    dataDir: config.DATA_DIR,
    sharedBuffers: config.PGLITE_SHARED_BUFFERS,
    logger,
  });
  const provider = createEmbeddingProvider(config);
  if (provider instanceof BuiltinEmbeddingProvider) await provider.warm();
  const embeddings = new MonitoredEmbeddingProvider(provider);
  const indexes = new VectorIndexes(database.db);
  if (
    config.EMBEDDING_PROVIDER === 'builtin' ||
    config.EMBEDDING_PROVIDER === 'hashing' ||
    config.EMBEDDING_DIMENSIONS
  ) {
    await indexes.ensure(await embeddings.dimension());
  }
  const health = new HealthRegistry();
  // One in-process full-text index for every service of the process (embedded database only, ADR 0305), loaded
  // in the background while the server starts.
  const lexicalIndex = LexicalIndex.forDatabase(database);
  void lexicalIndex
    ?.warm(database)
    .then((partitions) => logger.info({ partitions }, 'full-text index loaded'))
    .catch((err: unknown) =>
      logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'full-text index not preloaded'),
    );
  const metrics = createMetrics('memory');
  const deps = createAppDeps({
    config,
    logger,
    database,
    embeddings,
    indexes,
    lexicalIndex,
    health,
    version,
    metrics,
  });
  const app = createApp(deps);

  const { clock } = deps;
  const reminders = new ReminderScheduler({ database, clock, logger });
  reminders.start(config.REMINDER_POLL_MS);
  const reflect = new ReflectScheduler({
    database,
    reflect: deps.reflect,
    clock,
    logger,
    intervalSeconds: config.REFLECT_INTERVAL_SECONDS,
  });
  reflect.start();

  const management =
    config.MANAGEMENT_PORT === undefined
      ? undefined
      : await startManagementServer({ port: config.MANAGEMENT_PORT, registry: metrics.registry, logger });

  await startServer({
    app,
    port: config.PORT,
    host: listenHost(config),
    logger,
    health,
    drainMs: shutdownDrainMs(config.APP_PROFILES_ACTIVE, config.SHUTDOWN_DRAIN_MS),
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    handleSignals: true,
    onClose: [
      () => reminders.stop(),
      () => reflect.stop(),
      () => database.close(),
      () => management?.close(),
    ],
  });
}

void main().catch((err) => {
  console.error('memory service failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
