import os from 'node:os';
import v8 from 'node:v8';
import type { SystemHealth, SystemMetrics, SystemStatus } from '@care/contracts';
import type { HealthRegistry } from '@care/service-kit';
import type { Config } from '../config';
import type { MonitoredEmbeddingProvider } from '../embeddings/monitored.provider';
import { humanDuration, isoDuration, megabytes } from './durations';

/** What the system endpoints read. */
export interface SystemDeps {
  config: Pick<Config, 'PORT' | 'LOCAL_LLM_BASE_URL' | 'LOCAL_LLM_MODEL'>;
  version: string;
  startedAt: Date;
  clock: () => Date;
  health: HealthRegistry;
  embeddings: MonitoredEmbeddingProvider;
  engine: string;
  /** Number of MCP tools the service offers (the length of its tool list; 0 in RAG mode). */
  toolCount: number;
}

/** GET /api/v1/system/{status,health,metrics}, field names as ADR 0301 lists them. */
export class SystemService {
  constructor(private readonly d: SystemDeps) {}

  private uptimeSeconds(): number {
    return Math.max(0, Math.floor((this.d.clock().getTime() - this.d.startedAt.getTime()) / 1000));
  }

  private toolCount(): number {
    return this.d.toolCount;
  }

  /** Status: version, uptime (human and seconds), port, and the local LLM settings. */
  status(): SystemStatus {
    const up = this.uptimeSeconds();
    return {
      status: 'UP',
      version: this.d.version,
      uptime: humanDuration(up),
      uptimeSeconds: up,
      port: this.d.config.PORT,
      localLlmUrl: this.d.config.LOCAL_LLM_BASE_URL,
      localLlmModel: this.d.config.LOCAL_LLM_MODEL,
    };
  }

  /** Health: the database check decides `status`; the embedding provider is reported as last seen. */
  async health(): Promise<{ httpStatus: number; body: SystemHealth }> {
    const report = await this.d.health.readiness();
    const db = report.components.memory;
    return {
      httpStatus: report.status === 'UP' ? 200 : 503,
      body: {
        status: report.status,
        uptime: isoDuration(this.uptimeSeconds()),
        timestamp: this.d.clock().toISOString(),
        components: {
          memory: { status: db?.status ?? 'UNKNOWN', engine: this.d.engine },
          llm: {
            status: this.d.embeddings.status(),
            model: this.d.embeddings.model,
            baseUrl: this.d.embeddings.location,
          },
          tools: { status: 'UP', count: this.toolCount() },
        },
      },
    };
  }

  /**
   * Metrics. The `jvm` object (ADR 0301) carries the Node.js runtime's equivalents: `version` = Node version,
   * `vendor` = "Node.js (V8 <version>)", `uptime` = process uptime (ISO 8601), heap `used`/`total` = V8 heap
   * used/allocated, `max` = V8 heap size limit, `processors` = available parallelism.
   */
  metrics(): SystemMetrics {
    const mem = process.memoryUsage();
    return {
      jvm: {
        version: process.version,
        vendor: `Node.js (V8 ${process.versions.v8})`,
        uptime: isoDuration(process.uptime()),
        heap: {
          used: megabytes(mem.heapUsed),
          max: megabytes(v8.getHeapStatistics().heap_size_limit),
          total: megabytes(mem.heapTotal),
        },
        processors:
          typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length,
      },
      core: { tools: this.toolCount(), memoryEngine: this.d.engine, llmModel: this.d.embeddings.model },
    };
  }
}
