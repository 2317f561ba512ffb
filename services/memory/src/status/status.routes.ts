import { Router } from 'express';
import type { AppDeps } from '../app';
import { tenantOf } from '../http/tenant.middleware';

/** The status of the caller's partition. */
export function statusRoutes(deps: Pick<AppDeps, 'partitionStatus'>): Router {
  const r = Router();
  r.get('/api/v1/memory/status', async (_req, res) => {
    res.json(await deps.partitionStatus.status(tenantOf(res)));
  });
  return r;
}
