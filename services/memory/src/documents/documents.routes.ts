import { Router } from 'express';
import { DocumentIngest } from '@care/contracts';
import { tenantOf, validate } from '@care/service-kit';
import type { AppDeps } from '../app';

/** Document ingestion, open in every operating mode (the mode guard comes after it). */
export function documentsRoutes(deps: Pick<AppDeps, 'documents'>): Router {
  const r = Router();
  r.post('/api/v1/memory', validate({ body: DocumentIngest }), async (req, res) => {
    res.json(await deps.documents.ingestDocument(tenantOf(req), req.body));
  });
  return r;
}
