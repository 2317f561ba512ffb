import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local HTTP server standing in for Ollama, a provider or the memory service; counts requests per path. */
export interface FakeServer {
  url: string;
  hits: Map<string, number>;
  close(): Promise<void>;
}

/** Starts a loopback server answering each path with the given JSON (or hanging when the handler says so). */
export async function startFakeServer(
  routes: Record<string, (req: http.IncomingMessage) => unknown | 'hang'>,
): Promise<FakeServer> {
  const hits = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const p = (req.url ?? '/').split('?')[0];
    hits.set(p, (hits.get(p) ?? 0) + 1);
    const route = routes[p];
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    const body = route(req);
    if (body === 'hang') return; // never answers: exercises the probe timeout
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
