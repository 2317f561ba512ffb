import {
  createLogger,
  createMetrics,
  HealthRegistry,
  loadConfigOrExit,
  shutdownDrainMs,
  startServer,
} from '@care/service-kit';
import { createApp, createAppDeps, createManagementApp } from './app';
import { LoginCounters } from './auth/login-throttle';
import type { StreamRegistry } from './chat/chat.service';
import { loadAuthConfig } from './config';
import { openAuthDatabase } from './db/open-database';
import { bootstrapAdmin } from './users/bootstrap-admin';

async function main(): Promise<void> {
  const config = loadConfigOrExit(() => loadAuthConfig(process.env));
  const logger = createLogger({ name: 'platform-auth', level: config.LOG_LEVEL });
  const db = await openAuthDatabase(config, logger);
  const clock = () => new Date();
  const health = new HealthRegistry();
  const streams: StreamRegistry = {};
  const metrics = createMetrics('platform-auth');
  const loginCounters = new LoginCounters(config, logger, clock);
  const runtime = { config, logger, db, clock, health, streams, metrics, loginCounters: loginCounters.store };
  const deps = createAppDeps(runtime);
  await bootstrapAdmin(deps, {
    email: config.BOOTSTRAP_ADMIN_EMAIL,
    password: config.BOOTSTRAP_ADMIN_PASSWORD,
    tenantId: config.BOOTSTRAP_TENANT_ID,
  });
  const app = createApp(deps);
  const management =
    config.MANAGEMENT_PORT === undefined
      ? undefined
      : await startServer({
          app: createManagementApp(runtime),
          port: config.MANAGEMENT_PORT,
          logger,
          shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
        });
  const running = await startServer({
    app,
    port: config.PORT,
    logger,
    health,
    drainMs: shutdownDrainMs(config.APP_PROFILES_ACTIVE, config.SHUTDOWN_DRAIN_MS),
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    // The management port stays up through the drain (metrics keep being scraped) and closes with the rest.
    onClose: [
      () => management?.shutdown('main server closed'),
      () => loginCounters.close(),
      () => db.close(),
    ],
    handleSignals: true,
  });
  streams.track = running.trackStream;
}

main().catch((err: unknown) => {
  console.error('platform-auth failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
