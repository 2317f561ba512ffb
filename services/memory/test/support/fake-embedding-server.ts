// A local HTTP server speaking the documented wire formats of Ollama (/api/embed) and OpenAI (/v1/embeddings),
// with switches to fail; tests point the hosted providers at it. Loopback only.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HashingEmbeddingProvider } from '../../src/embeddings/hashing.provider';

/** What the fake server saw and how it should answer. */
export interface FakeEmbeddingServer {
  url: string;
  requests: Array<{ path: string; headers: http.IncomingHttpHeaders; body: Record<string, unknown> }>;
  /** Answer this HTTP status instead of vectors. */
  failWith?: number;
  /** Answer vectors of this size instead of the model's. */
  wrongSize?: number;
  close(): Promise<void>;
}

/** Starts the fake on a random loopback port; vectors come from the hashing provider (`dim` wide). */
export async function startFakeEmbeddingServer(dim = 48): Promise<FakeEmbeddingServer> {
  const state: FakeEmbeddingServer = { url: '', requests: [], close: async () => undefined };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as Record<string, unknown>;
      state.requests.push({ path: req.url ?? '', headers: req.headers, body });
      if (state.failWith) {
        res
          .writeHead(state.failWith, { 'content-type': 'application/json' })
          .end('{"error":"model not loaded"}');
        return;
      }
      const inputs = (Array.isArray(body.input) ? body.input : [body.input]) as string[];
      const size = state.wrongSize ?? (typeof body.dimensions === 'number' ? body.dimensions : dim);
      const vectors = inputs.map((t) =>
        new HashingEmbeddingProvider(size).vector(String(t)).map((x) => x * 3),
      );
      if (req.url === '/api/embed') {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ model: body.model, embeddings: vectors }));
      } else if (req.url === '/v1/embeddings') {
        // Deliberately out of order: clients must sort by index.
        const data = vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })).reverse();
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            object: 'list',
            data,
            model: body.model,
            usage: { prompt_tokens: 1, total_tokens: 1 },
          }),
        );
      } else {
        res.writeHead(404).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => new Promise((resolve) => server.close(() => resolve()));
  return state;
}

/** A loopback URL where nothing listens (the port was just released). */
export async function deadUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}
