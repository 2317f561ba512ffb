import { Router } from 'express';
import { Type } from '@care/contracts';
import { validate } from '@care/service-kit';
import { contextOf } from '../security/request-context';
import { pageOf, Paging, TenantId } from '../shared/schemas';
import type { TenantsService } from './tenants.service';

const Name = Type.String({ minLength: 1, maxLength: 200 });
export const CreateTenant = Type.Object({ id: TenantId, name: Name }, { additionalProperties: false });
export const UpdateTenant = Type.Object({ name: Name }, { additionalProperties: false });
export const IdParam = Type.Object({ id: TenantId });
export const ListQuery = Type.Object(Paging, { additionalProperties: false });
export const AuditQuery = Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })) }, { additionalProperties: false });

/** `/api/v1/tenants` (scope platform:admin): tenant CRUD and a tenant's audit trail. */
export function createTenantsRouter(tenants: TenantsService): Router {
  const router = Router();
  router.get('/', validate({ query: ListQuery }), async (req, res) => {
    res.json({ items: await tenants.list(contextOf(req), pageOf(res.locals.query)) });
  });
  router.post('/', validate({ body: CreateTenant }), async (req, res) => {
    const t = await tenants.create(contextOf(req), req.body);
    res.status(201).location(`/api/v1/tenants/${t.id}`).json(t);
  });
  router.get('/:id', validate({ params: IdParam }), async (req, res) => {
    res.json(await tenants.get(contextOf(req), req.params.id as string));
  });
  router.patch('/:id', validate({ params: IdParam, body: UpdateTenant }), async (req, res) => {
    res.json(await tenants.rename(contextOf(req), req.params.id as string, req.body.name));
  });
  router.delete('/:id', validate({ params: IdParam }), async (req, res) => {
    await tenants.remove(contextOf(req), req.params.id as string);
    res.status(204).end();
  });
  router.get('/:id/audit-events', validate({ params: IdParam, query: AuditQuery }), async (req, res) => {
    res.json({ items: await tenants.auditEvents(contextOf(req), req.params.id as string, res.locals.query.limit ?? 100) });
  });
  return router;
}
