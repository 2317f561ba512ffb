import { Router } from 'express';
import type { AppDeps } from '../app';

/** Status, health (503 when the database is down or the service is draining) and metrics. */
export function systemRoutes(deps: Pick<AppDeps, 'system'>): Router {
  const r = Router();
  r.get('/api/v1/system/status', (_req, res) => {
    res.json(deps.system.status());
  });
  r.get('/api/v1/system/health', async (_req, res) => {
    const { httpStatus, body } = await deps.system.health();
    res.status(httpStatus).json(body);
  });
  r.get('/api/v1/system/metrics', (_req, res) => {
    res.json(deps.system.metrics());
  });
  return r;
}
