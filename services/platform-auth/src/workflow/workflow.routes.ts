import { Router } from 'express';
import { pageOf, UuidParam } from '@care/contracts';
import { tenantOf, validate } from '@care/service-kit';
import type { AppDeps } from '../app';
import { CreateWorkflow, ListQuery, ReplaceWorkflow } from './workflow.schemas';

/** `/api/v1/workflow`: the tenant's care-workflow definitions (GET: workflow:read, others: workflow:access). */
export function workflowRoutes({ workflows }: Pick<AppDeps, 'workflows'>): Router {
  const router = Router();
  router.get('/api/v1/workflow', validate({ query: ListQuery }), async (req, res) => {
    res.json({ items: await workflows.list(tenantOf(req), pageOf(res.locals.query)) });
  });
  router.post('/api/v1/workflow', validate({ body: CreateWorkflow }), async (req, res) => {
    const w = await workflows.create(tenantOf(req), req.body);
    res.status(201).location(`/api/v1/workflow/${w.id}`).json(w);
  });
  router.get('/api/v1/workflow/:id', validate({ params: UuidParam }), async (req, res) => {
    res.json(await workflows.get(tenantOf(req), req.params.id as string));
  });
  router.put(
    '/api/v1/workflow/:id',
    validate({ params: UuidParam, body: ReplaceWorkflow }),
    async (req, res) => {
      res.json(await workflows.replace(tenantOf(req), req.params.id as string, req.body));
    },
  );
  router.delete('/api/v1/workflow/:id', validate({ params: UuidParam }), async (req, res) => {
    await workflows.remove(tenantOf(req), req.params.id as string);
    res.status(204).end();
  });
  return router;
}
