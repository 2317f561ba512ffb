import { Router } from 'express';
import type { AppDeps } from '../app';
import { optionalBody } from '../http/no-body';
import { tenantOf } from '../http/tenant.middleware';

/** A consolidation run on demand (ReflectScheduler runs them periodically). */
export function reflectRoutes(deps: Pick<AppDeps, 'reflect'>): Router {
  const r = Router();
  r.post('/api/v1/memory/reflect', optionalBody(), async (_req, res) => {
    res.json(await deps.reflect.reflect(tenantOf(res), 'manual'));
  });
  return r;
}
