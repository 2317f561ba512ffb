import path from 'node:path';
import type { HealthResponse } from '@care/contracts';
import type { MemoryClient } from '@care/clients';
import { safeUrl, type HealthRegistry } from '@care/service-kit';
import type { AppConfig } from '../config';
import type { CatalogStore } from '../catalog/catalog.store';
import { CachedProbe } from '../models/cached-probe';
import type { ModelsService } from '../models/models.service';

/** What the health report reads. */
export interface HealthDeps {
  config: Pick<AppConfig, 'MEMORY_BASE_URL' | 'LLM_PROBE_TIMEOUT_MS' | 'LLM_PROBE_CACHE_MS'>;
  catalog: Pick<CatalogStore, 'snapshot'>;
  models: Pick<ModelsService, 'activeReachable' | 'localLlm'>;
  /** The service's readiness checks (database, emergency screen): any one down makes the report `error`. */
  checks: Pick<HealthRegistry, 'readiness'>;
  /** The memory service client, when MEMORY_BASE_URL is set. */
  memory?: Pick<MemoryClient, 'isHealthy'>;
  version: string;
  startedAt: number;
  now: () => number;
}

/**
 * Builds `GET /api/health`: `error` when a registered readiness check fails (the database does not answer, the
 * emergency screen cannot run) or no agent is loaded; `degraded` when the active model, the memory service or a
 * workspace package is broken; `ok` otherwise. Outbound probes are cached (LLM_PROBE_CACHE_MS) and time-boxed
 * (LLM_PROBE_TIMEOUT_MS).
 */
export class HealthService {
  private readonly memory?: CachedProbe<boolean>;

  constructor(private readonly deps: HealthDeps) {
    const { config, memory } = deps;
    if (memory) {
      this.memory = new CachedProbe(
        () => memory.isHealthy({ timeoutMs: config.LLM_PROBE_TIMEOUT_MS }),
        config.LLM_PROBE_CACHE_MS,
        deps.now,
      );
    }
  }

  /** The current report. */
  async report(): Promise<HealthResponse> {
    const { deps } = this;
    const snap = deps.catalog.snapshot();
    const [readiness, modelReachable, localLlm, memoryUp] = await Promise.all([
      deps.checks.readiness(),
      deps.models.activeReachable(),
      deps.models.localLlm(),
      this.memory?.get(),
    ]);
    // Per component: while draining the overall status is OUT_OF_SERVICE, which must not hide a check that is down.
    const checksUp = Object.values(readiness.components).every((c) => c.status === 'UP');
    const memoryBroken = this.memory !== undefined && !memoryUp;
    const workspaceBroken = snap.problems.some((p) => p.severity === 'error');
    const status =
      !checksUp || snap.activeAgents.length === 0
        ? 'error'
        : !modelReachable || memoryBroken || workspaceBroken
          ? 'degraded'
          : 'ok';
    return {
      status,
      version: deps.version,
      uptime: Math.max(0, Math.round((deps.now() - deps.startedAt) / 10) / 100),
      timestamp: new Date(deps.now()).toISOString(),
      modelReachable,
      workspace: {
        root: displayRoot(snap.root),
        agentsCount: snap.activeAgents.length,
        skillsCount: snap.countedSkills.length,
      },
      localLlm,
      memoryBackend: deps.config.MEMORY_BASE_URL
        ? { kind: 'memory-service', url: safeUrl(deps.config.MEMORY_BASE_URL), reachable: !!memoryUp }
        : { kind: 'none', reachable: false },
    };
  }
}

// The path relative to the working directory when it lies inside it, so an open endpoint does not spell out
// the host's directory layout.
function displayRoot(root: string): string {
  const rel = path.relative(process.cwd(), root);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : root;
}
