import type { Express } from 'express';
import type { Database } from '@care/db';
import {
  createServiceApp,
  csv,
  finalizeApp,
  HealthRegistry,
  LIVENESS_PATH,
  livenessHandler,
  PROMETHEUS_PATH,
  prometheusHandler,
  trustProxySetting,
  verifierFromConfig,
  type AccessTokenVerifier,
  type Logger,
  type Metrics,
} from '@care/service-kit';
import { corsOrigins, type Config } from './config';
import { VectorIndexes } from './db/vector-index';
import { DocumentsService } from './documents/documents.service';
import { documentsRoutes } from './documents/documents.routes';
import type { EmbeddingProvider } from './embeddings/embedding-provider';
import { MonitoredEmbeddingProvider } from './embeddings/monitored.provider';
import { callerAuth } from './http/caller-auth.middleware';
import { memoryModeGuard } from './http/mode.middleware';
import { tenantMiddleware } from './http/tenant.middleware';
import { introspectRoutes } from './introspect/introspect.routes';
import { IntrospectService } from './introspect/introspect.service';
import { mcpRoutes } from './mcp/mcp.routes';
import { memoryTools } from './mcp/memory.mcp';
import { memoriesRoutes } from './memories/memories.routes';
import { MemoriesService } from './memories/memories.service';
import { RememberBatchService } from './memories/remember-batch.service';
import { openApiHandler, OPENAPI_PATH } from './openapi/memory.openapi';
import { DEFAULT_FUSION, type FusionSettings } from './recall/fusion';
import { TermStats } from './recall/lexical';
import { LexicalIndex } from './recall/lexical-index';
import { recallRoutes } from './recall/recall.routes';
import { RecallService } from './recall/recall.service';
import { createRecallHistogram, TimedRecallService } from './recall/timed-recall.service';
import { reflectRoutes } from './reflect/reflect.routes';
import { ReflectService } from './reflect/reflect.service';
import { remindersRoutes } from './reminders/reminders.routes';
import { RemindersService } from './reminders/reminders.service';
import { scratchpadRoutes } from './scratchpad/scratchpad.routes';
import { PartitionStatusService } from './status/partition-status.service';
import { statusRoutes } from './status/status.routes';
import { systemRoutes } from './system/system.routes';
import { SystemService } from './system/system.service';
import { whyNotRoutes } from './why-not/why-not.routes';
import { WhyNotService } from './why-not/why-not.service';

/** What the service is built from (main, a test or a bench hands it over); no module singletons. */
export interface AppRuntime {
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

/** The whole service, built once by {@link createAppDeps}: its settings, shared parts and one of each service. */
export interface AppDeps {
  config: Config;
  logger: Logger;
  database: Database;
  version: string;
  clock: () => Date;
  /** One registry; the health endpoint reads every check registered in it. */
  health: HealthRegistry;
  metrics?: Metrics;
  embeddings: MonitoredEmbeddingProvider;
  indexes: VectorIndexes;
  fusion: FusionSettings;
  /** Cached document frequencies for the lexical score, shared by the services of one process. */
  termStats: TermStats;
  /** The in-process full-text index (embedded database only; absent: recall searches full text in SQL). */
  lexicalIndex?: LexicalIndex;
  /** Platform bearer token verifier; absent when tokens are not verified. */
  verifier?: AccessTokenVerifier;
  documents: DocumentsService;
  memories: MemoriesService;
  /** Bulk writes (ADR 0109). */
  batch: RememberBatchService;
  recall: RecallService;
  whyNot: WhyNotService;
  introspect: IntrospectService;
  reminders: RemindersService;
  reflect: ReflectService;
  partitionStatus: PartitionStatusService;
  system: SystemService;
}

/** Human name of the storage engine, for health and metrics. */
function engineName(database: Database): string {
  return database.kind === 'pglite' ? 'PostgreSQL embedded (PGlite) + pgvector' : 'PostgreSQL + pgvector';
}

/** Builds the service's dependencies once: the shared parts, then each service with the narrow part it needs. */
export function createAppDeps(runtime: AppRuntime): AppDeps {
  const { config, logger, database } = runtime;
  const embeddings =
    runtime.embeddings instanceof MonitoredEmbeddingProvider
      ? runtime.embeddings
      : new MonitoredEmbeddingProvider(runtime.embeddings);
  const clock = runtime.clock ?? (() => new Date());
  const indexes = runtime.indexes ?? new VectorIndexes(database.db);
  const fusion = { ...DEFAULT_FUSION, recencyHalfLifeDays: config.RECENCY_HALF_LIFE_DAYS, ...runtime.fusion };
  const termStats = runtime.termStats ?? new TermStats();
  const lexicalIndex =
    runtime.lexicalIndex === null ? undefined : (runtime.lexicalIndex ?? LexicalIndex.forDatabase(database));
  const health = runtime.health ?? new HealthRegistry();
  health.register('memory', () => database.ping());
  const version = runtime.version ?? '0.0.0';

  const writes = { database, embeddings, indexes, clock, config };
  const recallDeps = { database, embeddings, clock, config, fusion, termStats, lexicalIndex };
  const recall = runtime.metrics
    ? new TimedRecallService(recallDeps, createRecallHistogram(runtime.metrics.registry))
    : new RecallService(recallDeps);
  const services = {
    documents: new DocumentsService(writes),
    memories: new MemoriesService(writes),
    batch: new RememberBatchService(writes),
    recall,
    whyNot: new WhyNotService({ database, embeddings, clock, fusion, lexicalIndex, recall }),
    introspect: new IntrospectService({ database, embeddings, clock, config, termStats }),
    reminders: new RemindersService({ database, embeddings, indexes, clock }),
    reflect: new ReflectService({ database, clock, config }),
    partitionStatus: new PartitionStatusService({ database, embeddings, clock, config }),
  };
  const system = new SystemService({
    toolCount: memoryTools(services, config.OPERATING_MODE).length,
    config,
    version,
    startedAt: runtime.startedAt ?? clock(),
    clock,
    health,
    embeddings,
    engine: engineName(database),
  });
  return {
    config,
    logger,
    database,
    version,
    clock,
    health,
    metrics: runtime.metrics,
    embeddings,
    indexes,
    fusion,
    termStats,
    lexicalIndex,
    verifier: verifierFromConfig(config, { now: () => clock().getTime() }),
    ...services,
    system,
  };
}

/**
 * Builds the memory service's express app (no listen): system endpoints, ingestion and memory operations, each
 * feature's routes with their full paths. Takes the built dependencies, or the runtime to build them from (the
 * benches and care-consult's chat tests start the service that way).
 */
export function createApp(input: AppDeps | AppRuntime): Express {
  const deps = 'system' in input ? input : createAppDeps(input);
  const { config } = deps;
  const prometheus = Boolean(deps.metrics && servesMetricsOnMainPort(config));
  const app = createServiceApp({
    logger: deps.logger,
    corsOrigins: corsOrigins(config),
    metrics: deps.metrics,
    bodyLimit: '2mb',
    trustProxy: trustProxySetting(config.TRUST_PROXY),
  });
  // Liveness asks only about the process (ADR 0012): a database blip must not restart the pod.
  app.get(LIVENESS_PATH, livenessHandler);
  app.get(
    OPENAPI_PATH,
    openApiHandler({ version: deps.version, prometheus, exemptPaths: csv(config.API_KEY_EXEMPT_PATHS) }),
  );
  app.use(
    callerAuth({
      apiKey: config.API_KEY,
      verifier: deps.verifier,
      exemptPaths: csv(config.API_KEY_EXEMPT_PATHS),
    }),
  );
  // Metrics live on MANAGEMENT_PORT when set; without it only the dev profile serves them here (ADR 0012).
  if (deps.metrics && prometheus) app.get(PROMETHEUS_PATH, prometheusHandler(deps.metrics.registry));
  app.use(systemRoutes(deps));
  // Every /api/v1/memory request names its partition; ingestion is open in every mode, the rest is not in RAG.
  app.use('/api/v1/memory', tenantMiddleware);
  app.use(documentsRoutes(deps));
  app.use('/api/v1/memory', memoryModeGuard(config.OPERATING_MODE));
  app.use(statusRoutes(deps));
  app.use(recallRoutes(deps));
  app.use(whyNotRoutes(deps));
  app.use(introspectRoutes(deps));
  app.use(remindersRoutes(deps));
  app.use(scratchpadRoutes(deps));
  app.use(reflectRoutes(deps));
  app.use(memoriesRoutes(deps)); // last: its `/api/v1/memory/:id` would take the fixed paths above
  app.use(mcpRoutes(deps));
  return finalizeApp(app);
}

/** Whether `/actuator/prometheus` is on the API port: only in dev and only without a management listener. */
function servesMetricsOnMainPort(config: Pick<Config, 'MANAGEMENT_PORT' | 'APP_PROFILES_ACTIVE'>): boolean {
  return config.MANAGEMENT_PORT === undefined && config.APP_PROFILES_ACTIVE === 'dev';
}
