import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Express } from 'express';
import type { Database } from '@care/db';
import { MemoryClient } from '@care/clients';
import { InMemoryNonceStore } from '@care/crypto';
import { sharedSentenceEncoder } from '@care/sentence-encoder';
import {
  createServiceApp,
  finalizeApp,
  HealthRegistry,
  trustProxySetting,
  verifierFromConfig,
  type AccessTokenVerifier,
  type Logger,
  type FetchFn,
  type Metrics,
} from '@care/service-kit';
import { corsOrigins, type AppConfig } from './config';
import { requireBearer } from './auth/auth.middleware';
import { AttachmentService } from './attachments/attachments.service';
import { attachmentsRoutes } from './attachments/attachments.routes';
import { AuditService } from './audit/audit.service';
import { auditRoutes } from './audit/audit.routes';
import { CatalogService } from './catalog/catalog.service';
import type { CatalogStore } from './catalog/catalog.store';
import { catalogRoutes } from './catalog/catalog.routes';
import { AgentRouter } from './chat/agent-router';
import { chatCatalogFrom } from './chat/catalog-adapter';
import { createChatServices } from './chat/chat.module';
import { chatRoutes, type ChatStreamRegistry } from './chat/chat.routes';
import type { ChatService } from './chat/chat.service';
import { consoleRoutes } from './console/console.routes';
import { HealthService } from './health/health.service';
import { healthRoutes } from './health/health.routes';
import { mcpRoutes } from './mcp/care-consult.mcp';
import {
  createCareConsultMetrics,
  metricsRoutes,
  type CareConsultMetrics,
} from './metrics/care-consult.metrics';
import { ModelsService } from './models/models.service';
import { modelsRoutes } from './models/models.routes';
import { openApiRoutes } from './openapi/care-consult.openapi';
import type { ChatProvider } from './providers/provider.types';
import { relayKeysFromConfig, type RelayDeps } from './relay/relay.deps';
import { FixedWindowRateLimiter } from './relay/relay.rate-limit';
import { relayRoutes } from './relay/relay.routes';
import { RelayService } from './relay/relay.service';
import { RedFlagScreen } from './safety';
import type { ThreadsService } from './threads/threads.service';
import { threadsRoutes } from './threads/threads.routes';

/** What main (or a test, or a bench) supplies; every other part of {@link AppDeps} is built from it. */
export interface AppRuntime {
  config: AppConfig;
  logger: Logger;
  database: Database;
  /** The loaded workspace (agents, skills, search index); reloads itself when watched. */
  catalog: CatalogStore;
  /** Relay signing keys and consumed-nonce store (main builds them; default: config keys, in-process store). */
  relay?: RelayDeps;
  metrics?: Metrics;
  /** Filled with startServer's trackStream once listening, so shutdown ends open chat streams with a final event. */
  streams?: ChatStreamRegistry;
  /** Outbound HTTP (probes, provider model lists, memory service); tests pass their own. */
  fetch?: FetchFn;
  clock?: () => Date;
  /** Overrides the configured chat model (tests, benchmarks); default from LLM_PROVIDER and the keys. */
  chatProvider?: ChatProvider;
  /** Overrides the emergency screen (tests: one whose encoder fails). */
  redFlagScreen?: RedFlagScreen;
  /** Overrides the audit writer (the relay fuzz keeps events in memory). */
  audit?: AuditService;
  version?: string;
  startedAt?: number;
}

/** The whole service, built once by {@link createAppDeps}; each feature takes the narrow part it needs. No singletons. */
export interface AppDeps {
  config: AppConfig;
  logger: Logger;
  database: Database;
  catalog: CatalogStore;
  clock: () => Date;
  fetch: FetchFn;
  /** The memory service (MEMORY_BASE_URL): chat memory tools, knowledge-base grounding, health; unset: none. */
  memory?: MemoryClient;
  /** The package version reported by `/api/health`, the OpenAPI document and the MCP server. */
  version: string;
  /** The service's one set of readiness checks (database, emergency screen) and its draining flag (ADR 0007). */
  health: HealthRegistry;
  /** Builds the `/api/health` report from {@link health}'s checks and the outbound probes. */
  healthService: HealthService;
  metrics?: Metrics;
  /** Streams open, refusals by category, relay outcomes (ADR 0012); only with {@link metrics}. */
  consultMetrics?: CareConsultMetrics;
  verifier: AccessTokenVerifier;
  /** The audit writer every feature calls: `audit.record({tenantId, actorId, action, ...})`. */
  audit: AuditService;
  catalogService: CatalogService;
  models: ModelsService;
  /** The per-tenant, per-user attachment sandbox. */
  attachments: AttachmentService;
  /**
   * The emergency screen run on every chat request before any model call. Its sentence encoder starts loading
   * here; main and the test app await `redFlagScreen.ready` before serving.
   */
  redFlagScreen: RedFlagScreen;
  /**
   * Chat routing by meaning (ADR 0415). Its model and agent vectors load in `agentRouter.ready()`, which main and
   * the test app await before serving, so no request waits for them.
   */
  agentRouter: AgentRouter;
  chat: ChatService;
  threads: ThreadsService;
  streams: ChatStreamRegistry;
  relayService: RelayService;
  /** The relay callback's per-address limit (ADR 0009). */
  relayLimiter: FixedWindowRateLimiter;
}

/** The package version reported by `/api/health` (same path from `src/` and `dist/`). */
function packageVersion(): string {
  try {
    return (
      JSON.parse(readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }
    ).version;
  } catch {
    return '0.0.0';
  }
}

/** Builds every service of care-consult once from what main (or a test) supplies. */
export function createAppDeps(runtime: AppRuntime): AppDeps {
  const { config, logger, database, catalog } = runtime;
  const clock = runtime.clock ?? (() => new Date());
  const now = () => clock().getTime();
  const fetchFn = runtime.fetch ?? fetch;
  const version = runtime.version ?? packageVersion();
  const models = new ModelsService({ config, fetch: fetchFn, clock });
  const audit = runtime.audit ?? new AuditService({ database, logger, clock });
  const catalogService = new CatalogService(catalog);
  const redFlagScreen = runtime.redFlagScreen ?? new RedFlagScreen();
  const health = new HealthRegistry()
    .register('database', () => database.ping())
    .register('redFlagScreen', () => redFlagScreen.ready);
  const agentRouter = new AgentRouter(
    chatCatalogFrom(catalogService, () => catalog.snapshot().activeAgents),
    sharedSentenceEncoder(),
    logger,
  );
  const memory = config.MEMORY_BASE_URL
    ? new MemoryClient({
        baseUrl: config.MEMORY_BASE_URL,
        apiKey: config.MEMORY_API_KEY,
        timeoutMs: config.MEMORY_TIMEOUT_MS,
        fetchFn,
      })
    : undefined;
  const relay = runtime.relay ?? {
    keys: relayKeysFromConfig(config, logger),
    nonceStore: new InMemoryNonceStore(),
  };
  const { chat, threads } = createChatServices({
    config,
    logger,
    database,
    catalog,
    catalogService,
    audit,
    clock,
    memory,
    agentRouter,
    redFlagScreen,
    chatProvider: runtime.chatProvider,
  });
  return {
    config,
    logger,
    database,
    catalog,
    clock,
    fetch: fetchFn,
    memory,
    version,
    health,
    healthService: new HealthService({
      config,
      catalog,
      models,
      checks: health,
      memory,
      version,
      startedAt: runtime.startedAt ?? now(),
      now,
    }),
    metrics: runtime.metrics,
    consultMetrics: runtime.metrics ? createCareConsultMetrics(runtime.metrics.registry) : undefined,
    // Without JWT_SECRET in dev every token is refused, so nothing is open by accident (ADR 0200).
    verifier: verifierFromConfig(config, { withoutSecret: 'refuse' }),
    audit,
    catalogService,
    models,
    attachments: new AttachmentService({ config, database, audit, logger, clock }),
    redFlagScreen,
    agentRouter,
    chat,
    threads,
    streams: runtime.streams ?? {},
    relayService: new RelayService({
      ...relay,
      companionScheme: config.RELAY_COMPANION_SCHEME,
      // A provider on the developer's machine (http://localhost...) is a dev setup only (ADR 0504).
      allowLoopbackHttpIssuer: config.APP_PROFILES_ACTIVE === 'dev',
      now,
      audit,
      auditTenantId: config.RELAY_AUDIT_TENANT_ID,
      logger,
    }),
    relayLimiter: new FixedWindowRateLimiter({
      limit: config.RELAY_CALLBACK_RATE_LIMIT,
      store: relay.rateCounters,
      // The nonce store shares the Redis and fails closed on its own: no redirect can happen while Redis is away.
      failOpen: true,
      now,
    }),
  };
}

/**
 * The care-consult HTTP app (no listen). Each feature declares its routes with their full paths and is mounted
 * here, one line each. Every `/api` route needs a bearer token except the open routes listed in auth.middleware
 * (health, relay callback); the relay routes come before that check so even their 401s carry no-store.
 */
export function createApp(deps: AppDeps): Express {
  const app = createServiceApp({
    logger: deps.logger,
    corsOrigins: corsOrigins(deps.config),
    metrics: deps.metrics,
    exposedHeaders: ['X-Thread-Id'],
    trustProxy: trustProxySetting(deps.config.TRUST_PROXY),
  });
  app.use(metricsRoutes(deps));
  app.use(openApiRoutes(deps));
  app.use(relayRoutes(deps));
  app.use('/api', requireBearer(deps.verifier));
  app.use(healthRoutes(deps));
  app.use(catalogRoutes(deps));
  app.use(modelsRoutes(deps));
  app.use(auditRoutes(deps));
  app.use(attachmentsRoutes(deps));
  app.use(threadsRoutes(deps));
  app.use(chatRoutes(deps));
  app.use(mcpRoutes(deps));
  app.use(consoleRoutes(deps)); // static page, no token: it signs in and calls /api itself
  return finalizeApp(app);
}
