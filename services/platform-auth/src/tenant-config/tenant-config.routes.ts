import { Router } from 'express';
import { validate } from '@care/service-kit';
import { contextOf } from '../security/request-context';
import { ConfigPatch } from './tenant-config.schemas';
import type { TenantConfigService } from './tenant-config.service';

/** `/api/v1/config`: GET (config:read) and PATCH (admin:config) of the caller's tenant settings and branding. */
export function createTenantConfigRouter(config: TenantConfigService): Router {
  const router = Router();
  router.get('/', async (req, res) => {
    res.json(await config.get(contextOf(req)));
  });
  router.patch('/', validate({ body: ConfigPatch }), async (req, res) => {
    res.json(await config.patch(contextOf(req), req.body));
  });
  return router;
}
