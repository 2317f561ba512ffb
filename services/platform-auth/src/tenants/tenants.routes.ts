import { Router } from 'express';
import { pageOf } from '@care/contracts';
import { callerOf, validate } from '@care/service-kit';
import type { AppDeps } from '../app';
import { clientOf } from '../audit/audit.service';
import { AuditQuery, CreateTenant, IdParam, ListQuery, UpdateTenant } from './tenants.schemas';

/** `/api/v1/tenants` (scope platform:admin): tenant CRUD and a tenant's audit trail. */
export function tenantsRoutes({ tenants }: Pick<AppDeps, 'tenants'>): Router {
  const router = Router();
  router.get('/api/v1/tenants', validate({ query: ListQuery }), async (req, res) => {
    res.json({ items: await tenants.list(callerOf(req), clientOf(req), pageOf(res.locals.query)) });
  });
  router.post('/api/v1/tenants', validate({ body: CreateTenant }), async (req, res) => {
    const t = await tenants.create(callerOf(req), clientOf(req), req.body);
    res.status(201).location(`/api/v1/tenants/${t.id}`).json(t);
  });
  router.get('/api/v1/tenants/:id', validate({ params: IdParam }), async (req, res) => {
    res.json(await tenants.get(callerOf(req), clientOf(req), req.params.id as string));
  });
  router.patch('/api/v1/tenants/:id', validate({ params: IdParam, body: UpdateTenant }), async (req, res) => {
    res.json(await tenants.rename(callerOf(req), clientOf(req), req.params.id as string, req.body.name));
  });
  router.delete('/api/v1/tenants/:id', validate({ params: IdParam }), async (req, res) => {
    await tenants.remove(callerOf(req), clientOf(req), req.params.id as string);
    res.status(204).end();
  });
  router.get(
    '/api/v1/tenants/:id/audit-events',
    validate({ params: IdParam, query: AuditQuery }),
    async (req, res) => {
      res.json({
        items: await tenants.auditEvents(
          callerOf(req),
          clientOf(req),
          req.params.id as string,
          res.locals.query.limit ?? 100,
        ),
      });
    },
  );
  return router;
}
