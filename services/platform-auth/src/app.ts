import type { Express } from 'express';
import type { Database } from '@care/db';
import {
  connectRedis,
  createAccessTokenVerifier,
  createMetrics,
  createServiceApp,
  finalizeApp,
  HealthRegistry,
  InMemoryWindowCounters,
  RedisWindowCounters,
  trustProxySetting,
  type AccessTokenVerifier,
  type AccessTokenVerifierConfig,
  type Logger,
  type Metrics,
  type WindowCounterStore,
} from '@care/service-kit';
import type { Config } from './config';
import { corsOrigins } from './config';
import { createActuatorRouter, type ActuatorDeps } from './actuator/actuator.routes';
import { loadBuildInfo, type BuildInfo } from './actuator/build-info';
import { createAuditTrail } from './audit/audit.service';
import { createAuthMetrics } from './auth/auth.metrics';
import { createAuthRouter } from './auth/auth.routes';
import { createAuthService } from './auth/auth.service';
import { LoginThrottle } from './auth/login-throttle';
import { createPasswordHasher, type PasswordHasher } from './auth/password-hasher';
import { createTokenIssuer } from './auth/token-issuer';
import { createChatProxy, type StreamRegistry } from './chat/chat-proxy';
import { createKbRouter } from './kb/kb.routes';
import { createKbService } from './kb/kb.service';
import { createMemoryIndexer } from './kb/memory-indexer';
import { openApiHandler, OPENAPI_PATH } from './openapi/platform-auth.openapi';
import { accessControl } from './security/access-control';
import { createScopeMapSource } from './security/scope-map.repository';
import { createTenantConfigRouter } from './tenant-config/tenant-config.routes';
import { createTenantConfigService } from './tenant-config/tenant-config.service';
import { createTenantsRouter } from './tenants/tenants.routes';
import { createTenantsService } from './tenants/tenants.service';
import { createUsersRouter } from './users/users.routes';
import { createUsersService } from './users/users.service';
import { createWorkflowRouter } from './workflow/workflow.routes';
import { createWorkflowService } from './workflow/workflow.service';

/** Everything {@link createApp} needs; no module singletons. */
export interface AppDeps {
  config: Config;
  logger: Logger;
  db: Database;
  /** Wall clock; tests move it. */
  clock?: () => Date;
  /** Shared with startServer so readiness turns OUT_OF_SERVICE while draining. */
  health?: HealthRegistry;
  metrics?: Metrics;
  /** Environment shown (masked) by /actuator/env. */
  env?: NodeJS.ProcessEnv;
  build?: BuildInfo;
  /** Used for the memory service calls. */
  fetchImpl?: typeof fetch;
  /** Shared hasher (its dummy hash is computed once). */
  hasher?: PasswordHasher;
  /** Filled with startServer's trackStream once listening, so shutdown ends open chat streams. */
  streams?: StreamRegistry;
  /** Login throttle counts (see {@link createLoginCounters}); default: in process. */
  loginCounters?: WindowCounterStore;
}

/** The login throttle's counter store and how to release it. */
export interface LoginCounters {
  store: WindowCounterStore;
  close(): Promise<void>;
}

/** Login throttle counts in Redis when `REDIS_URL` is set (shared by every replica, ADR 0009), else in process. */
export function createLoginCounters(config: Config, logger: Logger, clock: () => Date = () => new Date()): LoginCounters {
  if (!config.REDIS_URL) return { store: new InMemoryWindowCounters({ now: () => clock().getTime() }), close: async () => undefined };
  const client = connectRedis(config.REDIS_URL, logger, 'login throttle');
  return {
    store: new RedisWindowCounters(client, 'care:platform-auth:login:'),
    close: async () => {
      await client.quit().catch(() => client.disconnect());
    },
  };
}

/** Verifier settings for the configured mode (DESIGN section 4). */
export function verifierConfig(config: Config): AccessTokenVerifierConfig {
  if (config.AUTH_PROVIDER === 'external') {
    return {
      mode: 'external',
      jwksUri: config.AUTH_JWKS_URI,
      issuer: config.AUTH_ISSUER ?? '',
      audience: config.AUTH_AUDIENCE ?? '',
      jwksRequestsPerMinute: config.AUTH_JWKS_REQUESTS_PER_MINUTE,
    };
  }
  return { mode: 'builtin', secret: config.JWT_SECRET, issuer: config.JWT_ISSUER, audience: config.JWT_AUDIENCE };
}

function actuatorDeps(deps: AppDeps, health: HealthRegistry, metrics: Metrics, sensitive: ActuatorDeps['sensitive']): ActuatorDeps {
  const { config } = deps;
  return { health, metrics, build: deps.build ?? loadBuildInfo(config.GIT_COMMIT), profile: config.APP_PROFILES_ACTIVE, config: config as Record<string, unknown>, env: deps.env ?? process.env, sensitive };
}

/**
 * The app of `MANAGEMENT_PORT` (ADR 0005): the whole actuator, open, on a port the operator keeps inside the
 * cluster. Shares health and metrics with the main app.
 */
export function createManagementApp(deps: AppDeps & { health: HealthRegistry; metrics: Metrics }): Express {
  const app = createServiceApp({ logger: deps.logger, corsOrigins: [], trustProxy: trustProxySetting(deps.config.TRUST_PROXY) });
  app.use('/actuator', createActuatorRouter(actuatorDeps(deps, deps.health, deps.metrics, 'open')));
  return finalizeApp(app);
}

/** Builds the platform-auth Express app: access pipeline, feature routers, actuator; does not listen. */
export function createApp(deps: AppDeps): Express {
  const { config, logger, db } = deps;
  const clock = deps.clock ?? (() => new Date());
  const metrics = deps.metrics ?? createMetrics('platform-auth');
  const health = deps.health ?? new HealthRegistry();
  health.register('db', async () => {
    await db.ping();
    return { database: db.kind === 'pglite' ? 'PGlite' : 'PostgreSQL' };
  });
  const verifier: AccessTokenVerifier = createAccessTokenVerifier({ ...verifierConfig(config), now: () => clock().getTime() });
  const hasher = deps.hasher ?? createPasswordHasher(config.BCRYPT_COST);
  const audit = createAuditTrail(db, logger, clock);
  const builtin = config.AUTH_PROVIDER === 'builtin';
  const auth = builtin
    ? createAuthService({
        db,
        hasher,
        audit,
        clock,
        metrics: createAuthMetrics(metrics.registry),
        refreshTtlSeconds: config.REFRESH_TOKEN_TTL_SECONDS,
        issuer: createTokenIssuer({ secret: config.JWT_SECRET!, issuer: config.JWT_ISSUER, audience: config.JWT_AUDIENCE, accessTtlSeconds: config.JWT_TTL_SECONDS, clock }),
        throttle: new LoginThrottle({
          maxAccountFailures: config.LOGIN_MAX_ACCOUNT_FAILURES,
          lockoutSeconds: config.LOGIN_LOCKOUT_SECONDS,
          maxIpFailures: config.LOGIN_MAX_IP_FAILURES,
          ipWindowSeconds: config.LOGIN_IP_WINDOW_SECONDS,
          store: deps.loginCounters,
          now: () => clock().getTime(),
        }),
      })
    : undefined;
  const indexer = config.MEMORY_BASE_URL
    ? createMemoryIndexer({ baseUrl: config.MEMORY_BASE_URL, apiKey: config.MEMORY_API_KEY, timeoutMs: config.MEMORY_TIMEOUT_MS, writeTimeoutMs: config.KB_INDEX_TIMEOUT_MS, attempts: config.KB_INDEX_ATTEMPTS, backoffMs: config.KB_INDEX_BACKOFF_MS, concurrency: config.KB_INDEX_CONCURRENCY, logger, fetchImpl: deps.fetchImpl })
    : undefined;

  const app = createServiceApp({ logger, corsOrigins: corsOrigins(config), metrics, bodyLimit: '1mb', trustProxy: trustProxySetting(config.TRUST_PROXY) });
  app.use(accessControl({ verifier, scopeMap: createScopeMapSource(db) }));
  app.use('/actuator', createActuatorRouter(actuatorDeps(deps, health, metrics, config.MANAGEMENT_PORT === undefined ? 'admin' : 'off')));
  app.get(OPENAPI_PATH, openApiHandler({ version: (deps.build ?? loadBuildInfo(config.GIT_COMMIT)).version, sensitiveActuator: config.MANAGEMENT_PORT === undefined ? 'admin' : 'off' }));
  app.use('/api/v1/auth', createAuthRouter(auth));
  app.use('/api/v1/users', createUsersRouter(createUsersService({ db, hasher, audit, clock })));
  app.use('/api/v1/tenants', createTenantsRouter(createTenantsService({ db, audit, clock })));
  const tenantConfig = createTenantConfigService({ db, clock });
  app.use('/api/v1/config', createTenantConfigRouter(tenantConfig));
  app.use('/api/v1/workflow', createWorkflowRouter(createWorkflowService({ db, clock })));
  app.use('/api/v1/kb', createKbRouter(createKbService({ db, clock, indexer })));
  app.use(
    '/api/v1/chat',
    createChatProxy({
      upstream: config.CARE_CONSULT_URL,
      headersTimeoutMs: config.CHAT_CONNECT_TIMEOUT_MS,
      logger,
      streams: deps.streams,
      tenantChatDefaults: async (tenantId) => {
        const view = await tenantConfig.get({ tenantId } as Parameters<typeof tenantConfig.get>[0]);
        const allow = view.settings['chat.allowClinical'];
        return typeof allow === 'boolean' ? { allowClinical: allow } : {};
      },
    }),
  );
  return finalizeApp(app);
}
