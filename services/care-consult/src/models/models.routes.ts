import { Router } from 'express';
import type { AppDeps } from '../app';

/** `GET /api/models`: configured providers, their models (asked from the provider), the active one. */
export function modelsRoutes(deps: Pick<AppDeps, 'models'>): Router {
  const router = Router();
  router.get('/api/models', async (_req, res) => {
    res.json(await deps.models.models());
  });
  return router;
}
