import {
  loadConfigOrExit,
  createLogger,
  createMetrics,
  shutdownDrainMs,
  startManagementServer,
  startServer,
} from '@care/service-kit';
import { createApp, createAppDeps } from './app';
import { CatalogStore } from './catalog/catalog.store';
import { loadAppConfig, workspaceRoot } from './config';
import { openCareConsultDatabase } from './db/open-database';
import { createRelayRuntime } from './relay/relay.deps';
import { isClusterWorker, runClusterPrimary, shareWorkerMetrics } from './cluster';

/** Entry point: config (exit 1 before listening if wrong), database, workspace, app, server with graceful shutdown. */
async function main(): Promise<void> {
  const config = loadConfigOrExit(() => loadAppConfig());
  const root = createLogger({ name: 'care-consult', level: config.LOG_LEVEL });
  // In a cluster every line says which worker wrote it.
  const logger = isClusterWorker() ? root.child({ pid: process.pid }) : root;
  // WEB_CONCURRENCY > 1: this process supervises the workers and opens nothing else (ADR 0406). Config rules
  // already refused embedded storage, a missing REDIS_URL or RELAY_SIGNING_KEY.
  if (config.WEB_CONCURRENCY > 1 && !isClusterWorker()) {
    await runClusterPrimary({
      workers: config.WEB_CONCURRENCY,
      logger,
      managementPort: config.MANAGEMENT_PORT,
    });
    return;
  }
  if (!config.JWT_SECRET && config.AUTH_PROVIDER === 'builtin') {
    logger.warn(
      'JWT_SECRET is not set: every /api request except health and the relay callback will be refused',
    );
  }
  const database = await openCareConsultDatabase({
    uri: config.DATABASE_URI,
    dataDir: config.DATA_DIR,
    logger,
  });
  const catalog = new CatalogStore({ root: workspaceRoot(config), logger });
  await catalog.load();
  if (config.WORKSPACE_WATCH) catalog.watch();
  const relay = await createRelayRuntime(config, logger);
  const metrics = createMetrics('care-consult');
  // A worker's metrics are served by the primary's management port, summed over the workers.
  if (isClusterWorker()) shareWorkerMetrics(metrics.registry);
  const management =
    config.MANAGEMENT_PORT === undefined || isClusterWorker()
      ? undefined
      : await startManagementServer({ port: config.MANAGEMENT_PORT, registry: metrics.registry, logger });
  const deps = createAppDeps({
    config,
    logger,
    database,
    catalog,
    relay: relay.relay,
    metrics,
  });
  // The emergency screen's sentence encoder loads before the first request can arrive (and start-up fails if
  // it cannot load: chat must never run unscreened).
  await deps.redFlagScreen.ready;
  // The routing model and agent vectors load before the port opens (ADR 0415): no request pays for them.
  await deps.agentRouter.ready();
  const running = await startServer({
    app: createApp(deps),
    port: config.PORT,
    acceptSockets: config.ACCEPT_SOCKETS,
    logger,
    health: deps.health,
    drainMs: shutdownDrainMs(config.APP_PROFILES_ACTIVE, config.SHUTDOWN_DRAIN_MS),
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    handleSignals: true,
    onClose: [
      () => catalog.close(),
      () => deps.audit.flush(),
      () => relay.close(),
      () => database.close(),
      () => management?.close(),
    ],
  });
  deps.streams.track = running.trackStream;
}

main().catch((err: unknown) => {
  console.error('care-consult failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
