import type { Express } from 'express';
import { MemoryClient } from '@care/clients';
import type { Database } from '@care/db';
import {
  createMetrics,
  createServiceApp,
  finalizeApp,
  HealthRegistry,
  trustProxySetting,
  verifierFromConfig,
  type AccessTokenVerifier,
  type Logger,
  type Metrics,
  type WindowCounterStore,
} from '@care/service-kit';
import type { Config } from './config';
import { corsOrigins } from './config';
import { actuatorRoutes } from './actuator/actuator.routes';
import { loadBuildInfo, type BuildInfo } from './actuator/build-info';
import { AuditTrail } from './audit/audit.service';
import { AuthMetrics } from './auth/auth.metrics';
import { authRoutes } from './auth/auth.routes';
import { AuthService } from './auth/auth.service';
import { LoginThrottle } from './auth/login-throttle';
import { revokeUserTokens } from './auth/refresh-token.repository';
import { TokenIssuer } from './auth/token-issuer';
import { chatRoutes } from './chat/chat.routes';
import { ChatService, type StreamRegistry } from './chat/chat.service';
import { kbRoutes } from './kb/kb.routes';
import { KbService } from './kb/kb.service';
import { MemoryIndexer } from './kb/memory-indexer';
import { openApiRoutes } from './openapi/openapi.routes';
import { accessControl, type ScopeMapSource } from './security/access-control';
import { foldTrailingSlashes } from './security/path-canonical';
import { DbScopeMapSource } from './security/scope-map.repository';
import { tenantConfigRoutes } from './tenant-config/tenant-config.routes';
import { TenantConfigService } from './tenant-config/tenant-config.service';
import { tenantsRoutes } from './tenants/tenants.routes';
import { TenantsService } from './tenants/tenants.service';
import { PasswordHasher } from './users/password-hasher';
import { usersRoutes } from './users/users.routes';
import { UsersService } from './users/users.service';
import { workflowRoutes } from './workflow/workflow.routes';
import { WorkflowService } from './workflow/workflow.service';

/** What the process (main.ts, a test, a bench) hands to {@link createAppDeps}; the optional parts have defaults. */
export interface AppRuntime {
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
  /** Shared hasher (its dummy hash is computed once). */
  hasher?: PasswordHasher;
  /** Filled with startServer's trackStream once listening, so shutdown ends open chat streams. */
  streams?: StreamRegistry;
  /** Login throttle counts (see LoginCounters in auth/login-throttle.ts); default: in process. */
  loginCounters?: WindowCounterStore;
}

/** Everything platform-auth's features use, built once by {@link createAppDeps}. */
export interface AppDeps {
  config: Config;
  logger: Logger;
  db: Database;
  clock: () => Date;
  /** The one health registry: its checks are what /actuator/health and the readiness probe report. */
  health: HealthRegistry;
  metrics: Metrics;
  env: NodeJS.ProcessEnv;
  build: BuildInfo;
  verifier: AccessTokenVerifier;
  scopeMap: ScopeMapSource;
  audit: AuditTrail;
  hasher: PasswordHasher;
  /** Built-in login, refresh and logout; undefined in external mode (those endpoints answer 404). */
  auth: AuthService | undefined;
  users: UsersService;
  tenants: TenantsService;
  tenantConfig: TenantConfigService;
  workflows: WorkflowService;
  kb: KbService;
  chat: ChatService;
}

/** The parts the actuator shows, from the runtime or their defaults (build info on disk, the process environment). */
function actuatorViews(runtime: AppRuntime): Pick<AppDeps, 'build' | 'env'> {
  return {
    build: runtime.build ?? loadBuildInfo(runtime.config.GIT_COMMIT),
    env: runtime.env ?? process.env,
  };
}

/** Builds every service of platform-auth once, and registers the database health check. */
export function createAppDeps(runtime: AppRuntime): AppDeps {
  const { config, logger, db } = runtime;
  const clock = runtime.clock ?? (() => new Date());
  const metrics = runtime.metrics ?? createMetrics('platform-auth');
  const health = runtime.health ?? new HealthRegistry();
  health.register('db', async () => {
    await db.ping();
    return { database: db.kind === 'pglite' ? 'PGlite' : 'PostgreSQL' };
  });
  const hasher = runtime.hasher ?? new PasswordHasher(config.BCRYPT_COST);
  const audit = new AuditTrail({ db, logger, clock });
  const auth =
    config.AUTH_PROVIDER === 'builtin'
      ? new AuthService({
          db,
          hasher,
          audit,
          clock,
          metrics: new AuthMetrics(metrics.registry),
          refreshTtlSeconds: config.REFRESH_TOKEN_TTL_SECONDS,
          issuer: new TokenIssuer({
            secret: config.JWT_SECRET!,
            issuer: config.JWT_ISSUER,
            audience: config.JWT_AUDIENCE,
            accessTtlSeconds: config.JWT_TTL_SECONDS,
            clock,
          }),
          throttle: new LoginThrottle({
            maxAccountFailures: config.LOGIN_MAX_ACCOUNT_FAILURES,
            lockoutSeconds: config.LOGIN_LOCKOUT_SECONDS,
            maxIpFailures: config.LOGIN_MAX_IP_FAILURES,
            ipWindowSeconds: config.LOGIN_IP_WINDOW_SECONDS,
            store: runtime.loginCounters,
            now: () => clock().getTime(),
          }),
        })
      : undefined;
  const indexer = config.MEMORY_BASE_URL
    ? new MemoryIndexer({
        memory: new MemoryClient({
          baseUrl: config.MEMORY_BASE_URL,
          apiKey: config.MEMORY_API_KEY,
          timeoutMs: config.MEMORY_TIMEOUT_MS,
        }),
        writeTimeoutMs: config.KB_INDEX_TIMEOUT_MS,
        attempts: config.KB_INDEX_ATTEMPTS,
        backoffMs: config.KB_INDEX_BACKOFF_MS,
        concurrency: config.KB_INDEX_CONCURRENCY,
        logger,
      })
    : undefined;
  const tenantConfig = new TenantConfigService({ db, clock });
  return {
    config,
    logger,
    db,
    clock,
    health,
    metrics,
    ...actuatorViews(runtime),
    verifier: verifierFromConfig(config, { now: () => clock().getTime(), withoutSecret: 'refuse' }),
    scopeMap: new DbScopeMapSource(db),
    audit,
    hasher,
    auth,
    users: new UsersService({ db, hasher, audit, clock, revokeSessions: revokeUserTokens }),
    tenants: new TenantsService({ db, audit, clock }),
    tenantConfig,
    workflows: new WorkflowService({ db, clock }),
    kb: new KbService({ db, clock, indexer }),
    chat: new ChatService({
      upstream: config.CARE_CONSULT_URL,
      headersTimeoutMs: config.CHAT_CONNECT_TIMEOUT_MS,
      logger,
      streams: runtime.streams,
      tenantConfig,
    }),
  };
}

/**
 * The app of `MANAGEMENT_PORT` (ADR 0005): the whole actuator, open, on a port the operator keeps inside the
 * cluster. Shares health and metrics with the main app.
 */
export function createManagementApp(
  runtime: AppRuntime & { health: HealthRegistry; metrics: Metrics },
): Express {
  const { config, logger, health, metrics } = runtime;
  const app = createServiceApp({
    logger,
    corsOrigins: [],
    trustProxy: trustProxySetting(config.TRUST_PROXY),
  });
  app.use(foldTrailingSlashes);
  app.use(actuatorRoutes({ config, health, metrics, ...actuatorViews(runtime) }, 'open'));
  return finalizeApp(app);
}

/** Builds the platform-auth Express app: access pipeline, then every feature's routes; does not listen. */
export function createApp(deps: AppDeps): Express {
  const { config, logger } = deps;
  // Without a management port the sensitive actuator endpoints are on this port for platform:admin (ADR 0005).
  const sensitive = config.MANAGEMENT_PORT === undefined ? 'admin' : 'off';
  const app = createServiceApp({
    logger,
    corsOrigins: corsOrigins(config),
    metrics: deps.metrics,
    bodyLimit: '1mb',
    trustProxy: trustProxySetting(config.TRUST_PROXY),
  });
  app.use(accessControl({ verifier: deps.verifier, scopeMap: deps.scopeMap }));
  app.use(foldTrailingSlashes);
  app.use(actuatorRoutes(deps, sensitive));
  app.use(openApiRoutes(deps, sensitive));
  app.use(authRoutes(deps));
  app.use(usersRoutes(deps));
  app.use(tenantsRoutes(deps));
  app.use(tenantConfigRoutes(deps));
  app.use(workflowRoutes(deps));
  app.use(kbRoutes(deps));
  app.use(chatRoutes(deps));
  return finalizeApp(app);
}
