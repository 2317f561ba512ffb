import path from 'node:path';
import type { HealthResponse } from '@care/contracts';
import type { HealthRegistry } from '@care/service-kit';
import type { AppConfig } from '../config';
import type { CatalogStore } from '../catalog/catalog.store';
import { CachedProbe, joinUrl, probeJson, safeUrl, type FetchFn } from '../models/http-probe';
import type { ModelsService } from '../models/models.service';

/** What the health report reads. */
export interface HealthDeps {
  config: Pick<
    AppConfig,
    'MEMORY_BASE_URL' | 'MEMORY_API_KEY' | 'LLM_PROBE_TIMEOUT_MS' | 'LLM_PROBE_CACHE_MS'
  >;
  catalog: Pick<CatalogStore, 'snapshot'>;
  models: Pick<ModelsService, 'activeReachable' | 'localLlm'>;
  /** The service's readiness checks (database, emergency screen): any one down makes the report `error`. */
  checks: Pick<HealthRegistry, 'readiness'>;
  fetch: FetchFn;
  version: string;
  startedAt: number;
  now: () => number;
}

/**
 * Builds `GET /api/health`: `error` when a registered readiness check fails (the database does not answer, the
 * emergency screen cannot run) or no agent is loaded; `degraded`
 * when the active model, the memory service or a workspace package is broken; `ok` otherwise. Outbound
 * probes are cached (LLM_PROBE_CACHE_MS) and time-boxed (LLM_PROBE_TIMEOUT_MS).
 */
export class HealthService {
  private readonly memory?: CachedProbe<boolean>;

  constructor(private readonly deps: HealthDeps) {
    const { config } = deps;
    const base = config.MEMORY_BASE_URL;
    if (base) {
      const headers: Record<string, string> = config.MEMORY_API_KEY
        ? { 'x-api-key': config.MEMORY_API_KEY }
        : {};
      this.memory = new CachedProbe(
        async () =>
          (
            await probeJson(deps.fetch, joinUrl(base, 'api/v1/system/health'), {
              timeoutMs: config.LLM_PROBE_TIMEOUT_MS,
              headers,
            })
          ).ok,
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
