import type { Express } from 'express';
import type { Database } from '@care/db';
import {
  createAccessTokenVerifier,
  createServiceApp,
  csv,
  finalizeApp,
  HealthRegistry,
  LIVENESS_PATH,
  livenessHandler,
  PROMETHEUS_PATH,
  prometheusHandler,
  trustProxySetting,
  type Logger,
  type Metrics,
} from '@care/service-kit';
import { corsOrigins, verifierSettings, type Config } from './config';
import { VectorIndexes } from './db/vector-index';
import type { EmbeddingProvider } from './embeddings/embedding-provider';
import { MonitoredEmbeddingProvider } from './embeddings/monitored.provider';
import { callerAuth } from './http/caller-auth.middleware';
import { tenantMiddleware } from './http/tenant.middleware';
import { IntrospectService } from './introspect/introspect.service';
import { MemoriesService } from './memories/memories.service';
import { RememberBatchService } from './memories/remember-batch.service';
import type { MemoryContext } from './memories/memory-context';
import { createMemoryRouter, type MemoryRouteServices } from './memories/memory.routes';
import { MCP_PATH, memoryMcpEndpoint, memoryTools } from './mcp/memory.mcp';
import { PartitionStatusService } from './partitions/partition-status.service';
import { DEFAULT_FUSION, type FusionSettings } from './recall/fusion';
import { TermStats } from './recall/lexical';
import { LexicalIndex } from './recall/lexical-index';
import { RecallService } from './recall/recall.service';
import { createRecallHistogram, TimedRecallService } from './recall/timed-recall.service';
import { WhyNotService } from './recall/why-not.service';
import { ReflectService } from './reflect/reflect.service';
import { RemindersService } from './reminders/reminders.service';
import { openApiHandler, OPENAPI_PATH } from './openapi/memory.openapi';
import { createSystemRouter } from './system/system.routes';
import { SystemService } from './system/system.service';

/** Everything the app is built from; no module singletons. */
export interface AppDeps {
  config: Config;
  logger: Logger;
  database: Database;
  embeddings: EmbeddingProvider;
  clock?: () => Date;
  version?: string;
  startedAt?: Date;
  /** Shared with startServer so draining shows on the health endpoint. */
  health?: HealthRegistry;
  metrics?: Metrics;
  fusion?: Partial<FusionSettings>;
  /** Shared with the schedulers of the same process (caches which HNSW indexes exist). */
  indexes?: VectorIndexes;
  termStats?: TermStats;
  /**
   * In-process full-text index shared by the services of one process; by default one is made for an embedded
   * database (none for a PostgreSQL server); `null` turns it off (full text searched in SQL).
   */
  lexicalIndex?: LexicalIndex | null;
}

/** Human name of the storage engine, for health and metrics. */
export function engineName(database: Database): string {
  return database.kind === 'pglite' ? 'PostgreSQL embedded (PGlite) + pgvector' : 'PostgreSQL + pgvector';
}

/** The shared context of the memory services, from the app's dependencies. */
export function createMemoryContext(deps: AppDeps): MemoryContext {
  return {
    database: deps.database,
    embeddings: deps.embeddings,
    indexes: deps.indexes ?? new VectorIndexes(deps.database.db),
    clock: deps.clock ?? (() => new Date()),
    config: deps.config,
    fusion: { ...DEFAULT_FUSION, recencyHalfLifeDays: deps.config.RECENCY_HALF_LIFE_DAYS, ...deps.fusion },
    termStats: deps.termStats ?? new TermStats(),
    lexicalIndex:
      deps.lexicalIndex === null ? undefined : (deps.lexicalIndex ?? LexicalIndex.forDatabase(deps.database)),
  };
}

/** Builds the memory service's express app (no listen): system endpoints, ingestion and memory operations. */
export function createApp(deps: AppDeps): Express {
  const embeddings =
    deps.embeddings instanceof MonitoredEmbeddingProvider
      ? deps.embeddings
      : new MonitoredEmbeddingProvider(deps.embeddings);
  const ctx = createMemoryContext({ ...deps, embeddings });
  const health = deps.health ?? new HealthRegistry();
  health.register('memory', () => deps.database.ping());
  const services: MemoryRouteServices = {
    memories: new MemoriesService(ctx),
    batch: new RememberBatchService(ctx),
    recall: deps.metrics
      ? new TimedRecallService(ctx, createRecallHistogram(deps.metrics.registry))
      : new RecallService(ctx),
    whyNot: new WhyNotService(ctx),
    introspect: new IntrospectService(ctx),
    reminders: new RemindersService(ctx),
    reflect: new ReflectService(ctx),
    status: new PartitionStatusService(ctx),
  };
  const system = new SystemService({
    toolCount: memoryTools(services, deps.config.OPERATING_MODE).length,
    config: deps.config,
    version: deps.version ?? '0.0.0',
    startedAt: deps.startedAt ?? ctx.clock(),
    clock: ctx.clock,
    health,
    embeddings,
    engine: engineName(deps.database),
  });

  const app = createServiceApp({
    logger: deps.logger,
    corsOrigins: corsOrigins(deps.config),
    metrics: deps.metrics,
    bodyLimit: '2mb',
    trustProxy: trustProxySetting(deps.config.TRUST_PROXY),
  });
  // Liveness asks only about the process (ADR 0012): a database blip must not restart the pod.
  app.get(LIVENESS_PATH, livenessHandler);
  app.get(OPENAPI_PATH, openApiHandler({ version: deps.version ?? '0.0.0', prometheus: Boolean(deps.metrics && servesMetricsOnMainPort(deps.config)), exemptPaths: csv(deps.config.API_KEY_EXEMPT_PATHS) }));
  const tokens = verifierSettings(deps.config);
  app.use(
    callerAuth({
      apiKey: deps.config.API_KEY,
      verifier: tokens ? createAccessTokenVerifier({ ...tokens, now: () => (deps.clock ?? (() => new Date()))().getTime() }) : undefined,
      exemptPaths: csv(deps.config.API_KEY_EXEMPT_PATHS),
    }),
  );
  // Metrics live on MANAGEMENT_PORT when set; without it only the dev profile serves them here (ADR 0012).
  if (deps.metrics && servesMetricsOnMainPort(deps.config))
    app.get(PROMETHEUS_PATH, prometheusHandler(deps.metrics.registry));
  app.use('/api/v1/system', createSystemRouter(system));
  app.use('/api/v1/memory', tenantMiddleware, createMemoryRouter(services, deps.config.OPERATING_MODE));
  // The same services, credentials and partition rules as the REST routes, over MCP (ADR 0313).
  const mcp = memoryMcpEndpoint(services, deps.config.OPERATING_MODE, deps.version ?? '0.0.0', deps.logger);
  app.post(MCP_PATH, tenantMiddleware, mcp);
  app.get(MCP_PATH, mcp); // 405: stateless, no server stream
  app.delete(MCP_PATH, mcp); // 405: no session to end
  return finalizeApp(app);
}

/** Whether `/actuator/prometheus` is on the API port: only in dev and only without a management listener. */
export function servesMetricsOnMainPort(
  config: Pick<Config, 'MANAGEMENT_PORT' | 'APP_PROFILES_ACTIVE'>,
): boolean {
  return config.MANAGEMENT_PORT === undefined && config.APP_PROFILES_ACTIVE === 'dev';
}
