import { Router } from 'express';
import type { Static, ThreadHistory, ThreadList } from '@care/contracts';
import { validate, callerOf } from '@care/service-kit';
import type { AppDeps } from '../app';
import { ThreadHistoryQuery, ThreadListQuery, ThreadParams } from './threads.schemas';

/**
 * `GET /api/chat/threads`: the caller's own threads (tenant and user from the token), most recently active
 * first, with a title taken from the first question. `GET /api/chat/threads/{thread_id}`: one thread's turns,
 * newest first, a page at a time.
 */
export function threadsRoutes(deps: Pick<AppDeps, 'threads'>): Router {
  const router = Router();
  router.get('/api/chat/threads', validate({ query: ThreadListQuery }), async (req, res) => {
    const p = callerOf(req);
    const q = res.locals.query as Static<typeof ThreadListQuery>;
    const page: Static<typeof ThreadList> = await deps.threads.list(
      { tenantId: p.tenantId, userId: p.userId },
      { limit: q.limit ?? 20, cursor: q.cursor },
    );
    res.set('Cache-Control', 'no-store').json(page);
  });

  router.get(
    '/api/chat/threads/:thread_id',
    validate({ params: ThreadParams, query: ThreadHistoryQuery }),
    async (req, res) => {
      const p = callerOf(req);
      const q = res.locals.query as Static<typeof ThreadHistoryQuery>;
      const page: Static<typeof ThreadHistory> = await deps.threads.history(
        { tenantId: p.tenantId, userId: p.userId },
        String(req.params.thread_id),
        { limit: q.limit ?? 20, cursor: q.cursor },
      );
      res.json(page);
    },
  );
  return router;
}
