import { Router } from 'express';
import { ChatRequest, Type } from '@care/contracts';
import { validate } from '@care/service-kit';
import { principalOf, requestIdOf } from '../auth/auth.middleware';
import type { ThreadsService } from '../threads/threads.service';
import type { ChatService } from './chat.service';
import { SseWriter } from './sse-writer';
import type { CareConsultMetrics } from '../metrics/care-consult.metrics';

/** `GET /api/chat/threads/{thread_id}` query: page size and the cursor of the previous page. */
export const ThreadHistoryQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 12 })),
  },
  { additionalProperties: false },
);

const ThreadParams = Type.Object({ thread_id: Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:-]+$' }) });

/** Late-bound hook to startServer's `trackStream` (the app is built before the server listens). */
export interface ChatStreamRegistry {
  track?: (end: () => void) => () => void;
}

/** Dependencies of the chat router. */
export interface ChatRouterDeps {
  chat: ChatService;
  threads: ThreadsService;
  heartbeatMs: number;
  metrics?: CareConsultMetrics;
  /** Shutdown hook: open streams are ended with a final event when the drain window is over (ADR 0007). */
  streams?: ChatStreamRegistry;
}

/**
 * `POST /api/chat` (SSE) and `GET /api/chat/threads/{thread_id}`. Errors found before the stream opens are
 * problem+json answers; after that they travel inside the stream. A closed connection aborts the turn.
 */
export function createChatRouter(deps: ChatRouterDeps): Router {
  const router = Router();

  router.post('/chat', validate({ body: ChatRequest }), async (req, res) => {
    const p = principalOf(req);
    const turn = await deps.chat.prepare({ tenantId: p.tenantId, userId: p.userId, requestId: requestIdOf(req) }, req.body as ChatRequest);
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort(new Error('client disconnected'));
    });
    const sse = new SseWriter(res, { heartbeatMs: deps.heartbeatMs, headers: { 'X-Thread-Id': turn.lease.threadId } });
    sse.open();
    const metrics = deps.metrics;
    metrics?.streamsOpen.inc();
    res.once('close', () => metrics?.streamsOpen.dec());
    // At shutdown (after the drain window) the turn is stopped and the client told why, instead of the connection
    // being cut: a final `error` then `done` (ADR 0007). The turn is recorded as aborted.
    let shuttingDown = false;
    const untrack = deps.streams?.track?.(() => {
      shuttingDown = true;
      abort.abort(new Error('server shutting down'));
    });
    try {
      await deps.chat.run(
        turn,
        (e) => {
          if (e.event === 'refusal') metrics?.refusals.inc({ category: String((e.data as { category?: unknown }).category ?? 'unknown') });
          sse.send(e.event, e.data);
        },
        abort.signal,
      );
    } finally {
      untrack?.();
    }
    if (shuttingDown) {
      sse.send('error', { type: 'error', code: 'SERVICE_SHUTTING_DOWN', message: 'The service is restarting; please send the message again' });
      sse.send('done', '[DONE]');
    }
    sse.end();
  });

  router.get('/chat/threads/:thread_id', validate({ params: ThreadParams, query: ThreadHistoryQuery }), async (req, res) => {
    const p = principalOf(req);
    const q = res.locals.query as { limit?: number; cursor?: string };
    const page = await deps.threads.history({ tenantId: p.tenantId, userId: p.userId }, String(req.params.thread_id), {
      limit: q.limit ?? 20,
      cursor: q.cursor,
    });
    res.json(page);
  });

  return router;
}
