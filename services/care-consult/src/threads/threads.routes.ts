import { Router } from 'express';
import { Type } from '@care/contracts';
import { validate } from '@care/service-kit';
import { principalOf } from '../auth/auth.middleware';
import type { ThreadsService } from './threads.service';

/** `GET /api/chat/threads` query: page size and the cursor of the previous page. */
export const ThreadListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);

/**
 * `GET /api/chat/threads`: the caller's own threads (tenant and user from the token), most recently active
 * first, with a title taken from the first question. A thread's history is `GET /api/chat/threads/{id}`.
 */
export function createThreadsRouter(deps: { threads: ThreadsService }): Router {
  const router = Router();
  router.get('/chat/threads', validate({ query: ThreadListQuery }), async (req, res) => {
    const p = principalOf(req);
    const q = res.locals.query as { limit?: number; cursor?: string };
    const page = await deps.threads.list({ tenantId: p.tenantId, userId: p.userId }, { limit: q.limit ?? 20, cursor: q.cursor });
    res.set('Cache-Control', 'no-store').json(page);
  });
  return router;
}
