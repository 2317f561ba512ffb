import { Router } from 'express';
import { LIVENESS_PATH, livenessHandler } from '@care/service-kit';
import type { AppDeps } from '../app';

/**
 * `GET /api/health` (open): 200 for ok and degraded; 503 for error and while shutting down, so load
 * balancers stop routing to this replica. `GET /actuator/health/liveness` asks only about the process (ADR 0012).
 */
export function healthRoutes(deps: Pick<AppDeps, 'health' | 'healthService'>): Router {
  const router = Router();
  router.get(LIVENESS_PATH, livenessHandler);
  router.get('/api/health', async (_req, res) => {
    const report = await deps.healthService.report();
    const down = report.status === 'error' || deps.health.isDraining();
    res
      .status(down ? 503 : 200)
      .setHeader('Cache-Control', 'no-store')
      .json(report);
  });
  return router;
}
