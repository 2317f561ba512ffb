import { Router } from 'express';
import type { ModelsService } from './models.service';

/** `GET /api/models`: configured providers, their models (asked from the provider), the active one. */
export function createModelsRouter(deps: { models: ModelsService }): Router {
  const router = Router();
  router.get('/models', async (_req, res) => {
    res.json(await deps.models.models());
  });
  return router;
}
