import { Router } from 'express';
import { RecallRequest } from '@care/contracts';
import { tenantOf, validate } from '@care/service-kit';
import type { AppDeps } from '../app';

/** Fused recall across the tiers the operating mode searches. */
export function recallRoutes(deps: Pick<AppDeps, 'recall'>): Router {
  const r = Router();
  r.post('/api/v1/memory/recall', validate({ body: RecallRequest }), async (req, res) => {
    res.json(await deps.recall.recall(tenantOf(req), req.body));
  });
  return r;
}
