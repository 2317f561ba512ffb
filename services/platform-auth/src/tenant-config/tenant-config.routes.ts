import { Router } from 'express';
import { tenantOf, validate } from '@care/service-kit';
import type { AppDeps } from '../app';
import { ConfigPatch } from './tenant-config.schemas';

/** `/api/v1/config`: GET (config:read) and PATCH (admin:config) of the caller's tenant settings and branding. */
export function tenantConfigRoutes({ tenantConfig }: Pick<AppDeps, 'tenantConfig'>): Router {
  const router = Router();
  router.get('/api/v1/config', async (req, res) => {
    res.json(await tenantConfig.get(tenantOf(req)));
  });
  router.patch('/api/v1/config', validate({ body: ConfigPatch }), async (req, res) => {
    res.json(await tenantConfig.patch(tenantOf(req), req.body));
  });
  return router;
}
