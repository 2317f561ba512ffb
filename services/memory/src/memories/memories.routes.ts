import { Router } from 'express';
import { ReinforceRequest, RememberBatchRequest, RememberRequest, SuppressRequest } from '@care/contracts';
import { tenantOf, validate } from '@care/service-kit';
import type { AppDeps } from '../app';
import { optionalBody } from '../http/no-body';
import { IdParams } from './memories.schemas';

/**
 * Writing and maintaining single memories. Mounted after the other features of `/api/v1/memory`: `GET
 * /api/v1/memory/:id` would otherwise take their fixed paths (`/status`, `/scratchpad`, `/reminders`) as ids.
 */
export function memoriesRoutes(deps: Pick<AppDeps, 'memories' | 'batch'>): Router {
  const r = Router();
  r.post('/api/v1/memory/remember', validate({ body: RememberRequest }), async (req, res) => {
    res.json(await deps.memories.remember(tenantOf(req), req.body));
  });
  r.post('/api/v1/memory/remember/batch', validate({ body: RememberBatchRequest }), async (req, res) => {
    res.json(await deps.batch.rememberBatch(tenantOf(req), req.body));
  });
  r.get('/api/v1/memory/:id', validate({ params: IdParams }), async (req, res) => {
    res.json(await deps.memories.get(tenantOf(req), String(req.params.id)));
  });
  r.delete('/api/v1/memory/:id', validate({ params: IdParams }), async (req, res) => {
    res.json(await deps.memories.forget(tenantOf(req), String(req.params.id)));
  });
  r.post(
    '/api/v1/memory/:id/reinforce',
    validate({ params: IdParams, body: ReinforceRequest }),
    async (req, res) => {
      res.json(await deps.memories.reinforce(tenantOf(req), String(req.params.id), req.body));
    },
  );
  r.post(
    '/api/v1/memory/:id/suppress',
    validate({ params: IdParams, body: SuppressRequest }),
    async (req, res) => {
      res.json(await deps.memories.suppress(tenantOf(req), String(req.params.id), req.body.suppressed));
    },
  );
  r.post('/api/v1/memory/:id/resolve', validate({ params: IdParams }), optionalBody(), async (req, res) => {
    res.json(await deps.memories.resolve(tenantOf(req), String(req.params.id)));
  });
  return r;
}
