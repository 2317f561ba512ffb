import { Router } from 'express';
import { pageOf } from '@care/contracts';
import { validate } from '@care/service-kit';
import type { AppDeps } from '../app';
import { contextOf } from '../security/request-context';
import { AuditQuery, CreateTenant, IdParam, ListQuery, UpdateTenant } from './tenants.schemas';

/** `/api/v1/tenants` (scope platform:admin): tenant CRUD and a tenant's audit trail. */
export function tenantsRoutes({ tenants }: Pick<AppDeps, 'tenants'>): Router {
  const router = Router();
  router.get('/api/v1/tenants', validate({ query: ListQuery }), async (req, res) => {
    res.json({ items: await tenants.list(contextOf(req), pageOf(res.locals.query)) });
  });
  router.post('/api/v1/tenants', validate({ body: CreateTenant }), async (req, res) => {
    const t = await tenants.create(contextOf(req), req.body);
    res.status(201).location(`/api/v1/tenants/${t.id}`).json(t);
  });
  router.get('/api/v1/tenants/:id', validate({ params: IdParam }), async (req, res) => {
    res.json(await tenants.get(contextOf(req), req.params.id as string));
  });
  router.patch('/api/v1/tenants/:id', validate({ params: IdParam, body: UpdateTenant }), async (req, res) => {
    res.json(await tenants.rename(contextOf(req), req.params.id as string, req.body.name));
  });
  router.delete('/api/v1/tenants/:id', validate({ params: IdParam }), async (req, res) => {
    await tenants.remove(contextOf(req), req.params.id as string);
    res.status(204).end();
  });
  router.get(
    '/api/v1/tenants/:id/audit-events',
    validate({ params: IdParam, query: AuditQuery }),
    async (req, res) => {
      res.json({
        items: await tenants.auditEvents(
          contextOf(req),
          req.params.id as string,
          res.locals.query.limit ?? 100,
        ),
      });
    },
  );
  return router;
}
