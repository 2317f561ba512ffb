import { Router } from 'express';
import { ScratchpadRequest } from '@care/contracts';
import { tenantOf, validate } from '@care/service-kit';
import type { AppDeps } from '../app';

/** The working-memory scratchpad: working-tier memories with a time to live (written by MemoriesService). */
export function scratchpadRoutes(deps: Pick<AppDeps, 'memories'>): Router {
  const r = Router();
  r.post('/api/v1/memory/scratchpad', validate({ body: ScratchpadRequest }), async (req, res) => {
    res.json(await deps.memories.scratchpad(tenantOf(req), req.body));
  });
  r.get('/api/v1/memory/scratchpad', async (req, res) => {
    res.json({ partition: tenantOf(req), entries: await deps.memories.listScratchpad(tenantOf(req)) });
  });
  return r;
}
