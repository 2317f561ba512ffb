import { Router } from 'express';
import { tenantOf } from '@care/service-kit';
import type { AppDeps } from '../app';

/** The status of the caller's partition. */
export function statusRoutes(deps: Pick<AppDeps, 'partitionStatus'>): Router {
  const r = Router();
  r.get('/api/v1/memory/status', async (req, res) => {
    res.json(await deps.partitionStatus.status(tenantOf(req)));
  });
  return r;
}
