import { Router } from 'express';
import { tenantOf } from '@care/service-kit';
import type { AppDeps } from '../app';
import { optionalBody } from '../http/no-body';

/** A consolidation run on demand (ReflectScheduler runs them periodically). */
export function reflectRoutes(deps: Pick<AppDeps, 'reflect'>): Router {
  const r = Router();
  r.post('/api/v1/memory/reflect', optionalBody(), async (req, res) => {
    res.json(await deps.reflect.reflect(tenantOf(req), 'manual'));
  });
  return r;
}
