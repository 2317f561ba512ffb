import { Router } from 'express';
import { Type } from '@care/contracts';
import { validate } from '@care/service-kit';
import { contextOf } from '../security/request-context';
import { pageOf, Paging, UuidParam } from '../shared/schemas';
import { CreateWorkflow, ReplaceWorkflow } from './workflow.schemas';
import type { WorkflowService } from './workflow.service';

export const ListQuery = Type.Object(Paging, { additionalProperties: false });

/** `/api/v1/workflow`: the tenant's care-workflow definitions (GET: workflow:read, others: workflow:access). */
export function createWorkflowRouter(workflows: WorkflowService): Router {
  const router = Router();
  router.get('/', validate({ query: ListQuery }), async (req, res) => {
    res.json({ items: await workflows.list(contextOf(req), pageOf(res.locals.query)) });
  });
  router.post('/', validate({ body: CreateWorkflow }), async (req, res) => {
    const w = await workflows.create(contextOf(req), req.body);
    res.status(201).location(`/api/v1/workflow/${w.id}`).json(w);
  });
  router.get('/:id', validate({ params: UuidParam }), async (req, res) => {
    res.json(await workflows.get(contextOf(req), req.params.id as string));
  });
  router.put('/:id', validate({ params: UuidParam, body: ReplaceWorkflow }), async (req, res) => {
    res.json(await workflows.replace(contextOf(req), req.params.id as string, req.body));
  });
  router.delete('/:id', validate({ params: UuidParam }), async (req, res) => {
    await workflows.remove(contextOf(req), req.params.id as string);
    res.status(204).end();
  });
  return router;
}
