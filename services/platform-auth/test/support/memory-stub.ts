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
  const state: { status: number; recall?: unknown } = { status: 201 };
  const server = await serve((req: IncomingMessage, res: ServerResponse) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      calls.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: data ? JSON.parse(data) : undefined });
      res.writeHead(state.status, { 'content-type': 'application/json' });
      res.end(req.url === '/api/v1/memory/recall' && state.recall !== undefined ? JSON.stringify(state.recall) : '{}');
    });
  });
  return { calls, state, url: `http://127.0.0.1:${server.port}`, close: () => server.close() };
}
