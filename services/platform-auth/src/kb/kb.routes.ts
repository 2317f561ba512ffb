import { Router } from 'express';
import { validate } from '@care/service-kit';
import { contextOf } from '../security/request-context';
import { pageOf, UuidParam } from '../shared/schemas';
import { CreateDocument, ListDocumentsQuery, SearchQuery } from './kb.schemas';
import type { KbService } from './kb.service';

/** `/api/v1/kb`: the tenant's knowledge-base documents (GET: kb:read, others: kb:access). */
export function createKbRouter(kb: KbService): Router {
  const router = Router();
  router.get('/documents', validate({ query: ListDocumentsQuery }), async (req, res) => {
    const q = res.locals.query;
    res.json({ items: await kb.list(contextOf(req), { q: q.q, ...pageOf(q) }) });
  });
  router.get('/search', validate({ query: SearchQuery }), async (req, res) => {
    const q = res.locals.query as { q: string; limit?: number };
    res.json({ query: q.q, items: await kb.search(contextOf(req), q.q, q.limit ?? 10) });
  });
  router.post('/documents', validate({ body: CreateDocument }), async (req, res) => {
    const doc = await kb.create(contextOf(req), req.body);
    res.status(201).location(`/api/v1/kb/documents/${doc.id}`).json(doc);
  });
  router.get('/documents/:id', validate({ params: UuidParam }), async (req, res) => {
    res.json(await kb.get(contextOf(req), req.params.id as string));
  });
  router.delete('/documents/:id', validate({ params: UuidParam }), async (req, res) => {
    await kb.remove(contextOf(req), req.params.id as string);
    res.status(204).end();
  });
  return router;
}
