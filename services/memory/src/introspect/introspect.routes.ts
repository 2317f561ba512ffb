import { Router } from 'express';
import { IntrospectRequest } from '@care/contracts';
import { tenantOf, validate } from '@care/service-kit';
import type { AppDeps } from '../app';

/** How well the partition knows a topic. */
export function introspectRoutes(deps: Pick<AppDeps, 'introspect'>): Router {
  const r = Router();
  r.post('/api/v1/memory/introspect', validate({ body: IntrospectRequest }), async (req, res) => {
    res.json(await deps.introspect.introspect(tenantOf(req), req.body.topic));
  });
  return r;
}
