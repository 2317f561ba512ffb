import { Router } from 'express';
import { ChatRequest } from '@care/contracts';
import { validate, callerOf, requestIdOf } from '@care/service-kit';
import type { AppDeps } from '../app';
import { SseWriter } from './sse-writer';

/** Late-bound hook to startServer's `trackStream` (the app is built before the server listens). */
export interface ChatStreamRegistry {
  track?: (end: () => void) => () => void;
}

/**
 * `POST /api/chat` (SSE). Errors found before the stream opens are problem+json answers; after that they travel
 * inside the stream. A closed connection aborts the turn. At shutdown open streams are ended with a final event
 * when the drain window is over (ADR 0007).
 */
export function chatRoutes(deps: Pick<AppDeps, 'chat' | 'config' | 'consultMetrics' | 'streams'>): Router {
  const router = Router();

  router.post('/api/chat', validate({ body: ChatRequest }), async (req, res) => {
    const p = callerOf(req);
    const turn = await deps.chat.prepare(
      { tenantId: p.tenantId, userId: p.userId, requestId: requestIdOf(req) },
      req.body as ChatRequest,
    );
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort(new Error('client disconnected'));
    });
    const sse = new SseWriter(res, {
      heartbeatMs: deps.config.CHAT_HEARTBEAT_MS,
      headers: { 'X-Thread-Id': turn.lease.threadId },
    });
    sse.open();
    const metrics = deps.consultMetrics;
    metrics?.streamsOpen.inc();
    res.once('close', () => metrics?.streamsOpen.dec());
    // At shutdown (after the drain window) the turn is stopped and the client told why, instead of the connection
    // being cut: a final `error` then `done` (ADR 0007). The turn is recorded as aborted.
    let shuttingDown = false;
    const untrack = deps.streams.track?.(() => {
      shuttingDown = true;
      abort.abort(new Error('server shutting down'));
    });
    try {
      await deps.chat.run(
        turn,
        (e) => {
          if (e.event === 'refusal')
            metrics?.refusals.inc({
              category: e.data.category ?? 'unknown',
            });
          sse.send(e.event, e.data);
        },
        abort.signal,
      );
    } finally {
      untrack?.();
    }
    if (shuttingDown) {
      sse.send('error', {
        type: 'error',
        code: 'SERVICE_SHUTTING_DOWN',
        message: 'The service is restarting; please send the message again',
      });
      sse.send('done', '[DONE]');
    }
    sse.end();
  });

  return router;
}
