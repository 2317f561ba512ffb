import type { IncomingMessage, ServerResponse } from 'node:http';
import { serve } from './raw-http';

/** A recorded call to the fake memory service. */
export interface MemoryCall {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

/** A loopback HTTP server standing in for the memory service; `status` decides its answers. */
export async function startMemoryStub() {
  const calls: MemoryCall[] = [];
  /**
   * `status` answers every call; `writes` scripts the next indexing writes (POST .../remember and .../batch) one
   * by one: a status, and a delay before answering (longer than the client's timeout: a timed-out call).
   */
  const state: {
    status: number;
    recall?: unknown;
    writes: Array<{ status?: number; delayMs?: number }>;
    /** A write whose body this matches never answers in time (a lost call), on every attempt. */
    lostWhen?: (body: unknown) => boolean;
  } = { status: 201, writes: [] };
  const server = await serve((req: IncomingMessage, res: ServerResponse) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      calls.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: data ? JSON.parse(data) : undefined,
      });
      const isWrite = req.method === 'POST' && /^\/api\/v1\/memory\/remember(\/batch)?$/.test(req.url ?? '');
      const write = !isWrite
        ? undefined
        : state.lostWhen?.(calls[calls.length - 1]!.body)
          ? { delayMs: 60_000 }
          : state.writes.shift();
      const answer = () => {
        if (res.destroyed) return;
        res.writeHead(write?.status ?? state.status, { 'content-type': 'application/json' });
        res.end(
          req.url === '/api/v1/memory/recall' && state.recall !== undefined
            ? JSON.stringify(state.recall)
            : '{}',
        );
      };
      if (write?.delayMs) setTimeout(answer, write.delayMs).unref();
      else answer();
    });
  });
  return { calls, state, url: `http://127.0.0.1:${server.port}`, close: () => server.close() };
}
