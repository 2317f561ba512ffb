import { Router } from 'express';
import { WhyNotRequest } from '@care/contracts';
import { tenantOf, validate } from '@care/service-kit';
import type { AppDeps } from '../app';

/** Why a memory was (not) recalled for a query. */
export function whyNotRoutes(deps: Pick<AppDeps, 'whyNot'>): Router {
  const r = Router();
  r.post('/api/v1/memory/why-not', validate({ body: WhyNotRequest }), async (req, res) => {
    res.json(await deps.whyNot.whyNot(tenantOf(req), req.body));
  });
  return r;
}
