import path from 'node:path';
import { openDatabase } from '@care/db';
import { ConfigError, createLogger, createMetrics, HealthRegistry, shutdownDrainMs, startServer } from '@care/service-kit';
import { createApp, createLoginCounters, createManagementApp } from './app';
import type { StreamRegistry } from './chat/chat-proxy';
import { createAuditTrail } from './audit/audit.service';
import { createPasswordHasher } from './auth/password-hasher';
import { loadAuthConfig, type Config } from './config';
import { bootstrapAdmin } from './users/bootstrap-admin';

/** Path of the committed drizzle migrations (same from src/ and dist/). */
export const MIGRATIONS_FOLDER = path.join(__dirname, '..', 'drizzle');
/** The NOLOGIN role tenant transactions run as. */
export const RUNTIME_ROLE = 'care_auth_app';

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadAuthConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger({ name: 'platform-auth', level: config.LOG_LEVEL });
  const db = await openDatabase({
    uri: config.DATABASE_URI,
    dataDir: config.DATA_DIR,
    appName: 'platform-auth',
    migrationsFolder: MIGRATIONS_FOLDER,
    runtimeRole: RUNTIME_ROLE,
    logger,
  });
  const clock = () => new Date();
  const hasher = createPasswordHasher(config.BCRYPT_COST);
  await bootstrapAdmin(
    { db, hasher, audit: createAuditTrail(db, logger, clock), logger, clock },
    { email: config.BOOTSTRAP_ADMIN_EMAIL, password: config.BOOTSTRAP_ADMIN_PASSWORD, tenantId: config.BOOTSTRAP_TENANT_ID },
  );
  const health = new HealthRegistry();
  const streams: StreamRegistry = {};
  const metrics = createMetrics('platform-auth');
  const loginCounters = createLoginCounters(config, logger, clock);
  const deps = { config, logger, db, clock, health, hasher, streams, metrics, loginCounters: loginCounters.store };
  const app = createApp(deps);
  const management =
    config.MANAGEMENT_PORT === undefined
      ? undefined
      : await startServer({ app: createManagementApp(deps), port: config.MANAGEMENT_PORT, logger, shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS });
  const running = await startServer({
    app,
    port: config.PORT,
    logger,
    health,
    drainMs: shutdownDrainMs(config.APP_PROFILES_ACTIVE, config.SHUTDOWN_DRAIN_MS),
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    // The management port stays up through the drain (metrics keep being scraped) and closes with the rest.
    onClose: [() => management?.shutdown('main server closed'), () => loginCounters.close(), () => db.close()],
    handleSignals: true,
  });
  streams.track = running.trackStream;
}

main().catch((err: unknown) => {
  console.error('platform-auth failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
