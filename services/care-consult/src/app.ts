import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Router, type Express } from 'express';
import type { Database } from '@care/db';
import {
  createServiceApp,
  finalizeApp,
  LIVENESS_PATH,
  livenessHandler,
  PROMETHEUS_PATH,
  prometheusHandler,
  trustProxySetting,
  type AccessTokenVerifier,
  type Logger,
  type Metrics,
} from '@care/service-kit';
import { createCareConsultMetrics } from './metrics/care-consult.metrics';
import { corsOrigins, type AppConfig } from './config';
import type { ChatStreamRegistry } from './chat/chat.routes';
import { createVerifier, requireBearer } from './auth/auth.middleware';
import { AttachmentService } from './attachments/attachments.service';
import { createAttachmentsRouter } from './attachments/attachments.routes';
import { AuditService } from './audit/audit.service';
import { createAuditRouter } from './audit/audit.routes';
import type { RelayDeps } from './relay/relay.deps';
import { createRelayRouter } from './relay/relay.routes';
import { CatalogService } from './catalog/catalog.service';
import type { CatalogStore } from './catalog/catalog.store';
import { createCatalogRouter } from './catalog/catalog.routes';
import { HealthService } from './health/health.service';
import { createHealthRouter } from './health/health.routes';
import { ModelsService } from './models/models.service';
import { createModelsRouter } from './models/models.routes';
import type { FetchFn } from './models/http-probe';
import { sharedSentenceEncoder } from '@care/sentence-encoder';
import { AgentRouter } from './chat/agent-router';
import { chatCatalogFrom } from './chat/catalog-adapter';
import { createChatFeature } from './chat/chat.module';
import type { ChatProvider } from './providers/provider.types';
import { createConsoleRouter } from './console/console.routes';
import { createThreadsRouter } from './threads/threads.routes';
import { RedFlagScreen } from './safety';
import { openApiHandler, OPENAPI_PATH } from './openapi/care-consult.openapi';
import { careConsultMcpEndpoint, MCP_PATH } from './mcp/care-consult.mcp';

/** Everything the routers need; built once in main (or per test file) and passed down. No singletons. */
export interface AppDeps {
  config: AppConfig;
  logger: Logger;
  database: Database;
  /** The loaded workspace (agents, skills, search index); reloads itself when watched. */
  catalog: CatalogStore;
  catalogService: CatalogService;
  /** The audit writer every feature calls: `audit.record({tenantId, actorId, action, ...})`. */
  audit: AuditService;
  models: ModelsService;
  health: HealthService;
  /** The per-tenant, per-user attachment sandbox (chat reads attachments through `attachments.content`). */
  attachments: AttachmentService;
  verifier: AccessTokenVerifier;
  /** Relay signing keys and consumed-nonce store (main builds them; default: config keys, in-process store). */
  relay?: RelayDeps;
  /** Outbound HTTP (probes, provider model lists); tests pass their own. */
  fetch: FetchFn;
  clock: () => Date;
  metrics?: Metrics;
  /** True once shutdown began: health answers 503 so load balancers drain this replica. */
  isDraining: () => boolean;
  /** Overrides the configured chat model (tests, benchmarks); default from LLM_PROVIDER and the keys. */
  chatProvider?: ChatProvider;
  /**
   * The emergency screen run on every chat request before any model call. Built (and its sentence encoder
   * starting to load) with the deps; main and the test app await `redFlagScreen.ready` before serving.
   */
  redFlagScreen: RedFlagScreen;
  /** Filled with startServer's trackStream once listening, so shutdown ends open chat streams with a final event. */
  streams?: ChatStreamRegistry;
  /**
   * Chat routing by meaning (ADR 0415). Its model and agent vectors load in `agentRouter.ready()`, which main and
   * the test app await before serving, so no request waits for them.
   */
  agentRouter: AgentRouter;
}

/** The parts main (or a test) must supply; the rest of {@link AppDeps} is derived, and any part can be overridden. */
export type CoreDeps = Pick<AppDeps, 'config' | 'logger' | 'database' | 'catalog'> & Partial<AppDeps> & { version?: string; startedAt?: number };

/** The package version reported by `/api/health` (same path from `src/` and `dist/`). */
export function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

/** Builds the derived services from the core dependencies. */
export function createAppDeps(core: CoreDeps): AppDeps {
  const clock = core.clock ?? (() => new Date());
  const now = () => clock().getTime();
  const fetchFn = core.fetch ?? fetch;
  const models = core.models ?? new ModelsService(core.config, fetchFn, now);
  const audit = core.audit ?? new AuditService(core.database, core.logger, clock);
  const catalogService = core.catalogService ?? new CatalogService(core.catalog);
  const agentRouter =
    core.agentRouter ??
    new AgentRouter(
      chatCatalogFrom(catalogService, () => core.catalog.snapshot().activeAgents),
      sharedSentenceEncoder(),
      core.logger,
    );
  return {
    ...core,
    clock,
    fetch: fetchFn,
    models,
    catalogService,
    agentRouter,
    audit,
    attachments: core.attachments ?? new AttachmentService({ config: core.config, database: core.database, audit, logger: core.logger, clock }),
    verifier: core.verifier ?? createVerifier(core.config),
    isDraining: core.isDraining ?? (() => false),
    redFlagScreen: core.redFlagScreen ?? new RedFlagScreen(),
    health:
      core.health ??
      new HealthService({
        config: core.config,
        catalog: core.catalog,
        models,
        pingDatabase: () => core.database.ping(),
        fetch: fetchFn,
        version: core.version ?? packageVersion(),
        startedAt: core.startedAt ?? now(),
        now,
      }),
  };
}

/**
 * The care-consult HTTP app (no listen). Every `/api` route needs a bearer token except the open routes
 * listed in auth.middleware (health, relay callback). Feature routers are mounted below, one line each,
 * with paths relative to `/api`.
 */
export function createApp(deps: AppDeps): Express {
  const app = createServiceApp({
    logger: deps.logger,
    corsOrigins: corsOrigins(deps.config),
    metrics: deps.metrics,
    exposedHeaders: ['X-Thread-Id'],
    trustProxy: trustProxySetting(deps.config.TRUST_PROXY),
  });
  const consultMetrics = deps.metrics ? createCareConsultMetrics(deps.metrics.registry) : undefined;
  // Liveness asks only about the process (ADR 0012); metrics are on MANAGEMENT_PORT, or here in dev without one.
  app.get(LIVENESS_PATH, livenessHandler);
  app.get(OPENAPI_PATH, openApiHandler({ version: packageVersion(), prometheus: Boolean(deps.metrics && deps.config.MANAGEMENT_PORT === undefined && deps.config.APP_PROFILES_ACTIVE === 'dev') }));
  if (deps.metrics && deps.config.MANAGEMENT_PORT === undefined && deps.config.APP_PROFILES_ACTIVE === 'dev') {
    app.get(PROMETHEUS_PATH, prometheusHandler(deps.metrics.registry));
  }
  const api = Router();
  api.use(createRelayRouter({ ...deps, consultMetrics })); // before the bearer check so even its 401s carry no-store; tickets check the token
  api.use(requireBearer(deps.verifier));
  api.use(createHealthRouter(deps));
  api.use(createCatalogRouter(deps));
  api.use(createModelsRouter(deps));
  api.use(createAuditRouter(deps));
  api.use(createAttachmentsRouter(deps));
  const screen = deps.redFlagScreen;
  const chat = createChatFeature({ ...deps, detectRedFlag: (latest, recent) => screen.screen(latest, recent), provider: deps.chatProvider, consultMetrics });
  api.use(createThreadsRouter({ threads: chat.threads }));
  api.use(chat.router);
  app.use('/api', api);
  // MCP (ADR 0427): the catalog and one screened consult turn, with the same bearer check as /api (no open routes).
  const mcp = careConsultMcpEndpoint({
    catalogService: deps.catalogService,
    chat: chat.chat,
    threads: chat.threads,
    audit: deps.audit,
    logger: deps.logger,
    version: packageVersion(),
    onRefusal: (category) => consultMetrics?.refusals.inc({ category }),
    track: (end) => deps.streams?.track?.(end) ?? (() => undefined),
  });
  const mcpAuth = requireBearer(deps.verifier, []);
  app.post(MCP_PATH, mcpAuth, mcp);
  app.get(MCP_PATH, mcpAuth, mcp); // 405: stateless, no server stream
  app.delete(MCP_PATH, mcpAuth, mcp); // 405: no session to end
  app.use(createConsoleRouter(deps.config)); // static page, no token: it signs in and calls /api itself
  return finalizeApp(app);
}
