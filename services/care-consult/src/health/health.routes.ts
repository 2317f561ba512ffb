import { Router } from 'express';
import type { HealthService } from './health.service';

/**
 * `GET /api/health` (open): 200 for ok and degraded; 503 for error and while shutting down, so load
 * balancers stop routing to this replica.
 */
export function createHealthRouter(deps: { health: HealthService; isDraining: () => boolean }): Router {
  const router = Router();
  router.get('/health', async (_req, res) => {
    const report = await deps.health.report();
    const down = report.status === 'error' || deps.isDraining();
    res.status(down ? 503 : 200).setHeader('Cache-Control', 'no-store').json(report);
  });
  return router;
}
