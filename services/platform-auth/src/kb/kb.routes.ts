import { Router } from 'express';
import { pageOf, UuidParam, type KbSearchResult, type Static } from '@care/contracts';
import { tenantOf, validate } from '@care/service-kit';
import type { AppDeps } from '../app';
import { CreateDocument, ListDocumentsQuery, SearchQuery } from './kb.schemas';

/** `/api/v1/kb`: the tenant's knowledge-base documents and passage search (GET: kb:read, others: kb:access). */
export function kbRoutes({ kb }: Pick<AppDeps, 'kb'>): Router {
  const router = Router();
  router.get('/api/v1/kb/documents', validate({ query: ListDocumentsQuery }), async (req, res) => {
    const q = res.locals.query;
    res.json({ items: await kb.list(tenantOf(req), { q: q.q, ...pageOf(q) }) });
  });
  router.get('/api/v1/kb/search', validate({ query: SearchQuery }), async (req, res) => {
    const q = res.locals.query as { q: string; limit?: number };
    const body: Static<typeof KbSearchResult> = {
      query: q.q,
      items: await kb.search(tenantOf(req), q.q, q.limit ?? 10),
    };
    res.json(body);
  });
  router.post('/api/v1/kb/documents', validate({ body: CreateDocument }), async (req, res) => {
    const doc = await kb.create(tenantOf(req), req.body);
    res.status(201).location(`/api/v1/kb/documents/${doc.id}`).json(doc);
  });
  router.get('/api/v1/kb/documents/:id', validate({ params: UuidParam }), async (req, res) => {
    res.json(await kb.get(tenantOf(req), req.params.id as string));
  });
  router.delete('/api/v1/kb/documents/:id', validate({ params: UuidParam }), async (req, res) => {
    await kb.remove(tenantOf(req), req.params.id as string);
    res.status(204).end();
  });
  return router;
}
