import { Router } from 'express';
import type { SystemService } from './system.service';

/** `/api/v1/system`: status, health (503 when the database is down or the service is draining), metrics. */
export function createSystemRouter(system: SystemService): Router {
  const r = Router();
  r.get('/status', (_req, res) => {
    res.json(system.status());
  });
  r.get('/health', async (_req, res) => {
    const { httpStatus, body } = await system.health();
    res.status(httpStatus).json(body);
  });
  r.get('/metrics', (_req, res) => {
    res.json(system.metrics());
  });
  return r;
}
