import { Router } from 'express';
import { RecallRequest } from '@care/contracts';
import { validate } from '@care/service-kit';
import type { AppDeps } from '../app';
import { tenantOf } from '../http/tenant.middleware';

/** Fused recall across the tiers the operating mode searches. */
export function recallRoutes(deps: Pick<AppDeps, 'recall'>): Router {
  const r = Router();
  r.post('/api/v1/memory/recall', validate({ body: RecallRequest }), async (req, res) => {
    res.json(await deps.recall.recall(tenantOf(res), req.body));
  });
  return r;
}
