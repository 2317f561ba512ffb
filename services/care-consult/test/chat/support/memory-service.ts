import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Writable } from 'node:stream';

/** A running memory service for chat tests. */
export interface MemoryServer {
  url: string;
  apiKey: string;
  /** `real` when the memory service's own app runs, `stand-in` when its build was missing. */
  kind: 'real' | 'stand-in';
  close(): Promise<void>;
}

const MEMORY_DIST = path.resolve(__dirname, '..', '..', '..', '..', 'memory', 'dist');
const API_KEY = 'memory-test-key-0123456789';

async function listen(handler: http.RequestListener): Promise<{ server: http.Server; url: string }> {
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const closeServer = (server: http.Server) =>
  new Promise<void>((r) => {
    server.closeAllConnections();
    server.close(() => r());
  });

/**
 * Starts the real memory service (its built app, in-process, PGlite in memory, hashing embeddings so no model
 * loads) when services/memory/dist exists; otherwise, with a printed notice, a small stand-in speaking the
 * same two endpoints (remember, recall) with tenant partitions and the API key check.
 */
export async function startMemoryService(): Promise<MemoryServer> {
  if (existsSync(path.join(MEMORY_DIST, 'app.js'))) {
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { createApp } = require(path.join(MEMORY_DIST, 'app.js'));
    const { loadMemoryConfig } = require(path.join(MEMORY_DIST, 'config.js'));
    const { openMemoryDatabase } = require(path.join(MEMORY_DIST, 'db', 'open-database.js'));
    const { HashingEmbeddingProvider } = require(path.join(MEMORY_DIST, 'embeddings', 'hashing.provider.js'));
    const { createLogger } = require('@care/service-kit');
    /* eslint-enable @typescript-eslint/no-require-imports */
    const config = loadMemoryConfig({
      API_KEY,
      EMBEDDING_PROVIDER: 'hashing',
      DATABASE_URI: 'pglite://memory',
      LOG_LEVEL: 'warn',
    });
    const database = await openMemoryDatabase({ uri: 'pglite://memory' });
    const logger = createLogger({
      name: 'memory-test',
      level: 'warn',
      destination: new Writable({ write: (_c, _e, cb) => cb() }),
    });
    const app = createApp({ config, logger, database, embeddings: new HashingEmbeddingProvider() });
    const { server, url } = await listen(app);
    return {
      url,
      apiKey: API_KEY,
      kind: 'real',
      close: async () => {
        await closeServer(server);
        await database.close();
      },
    };
  }
  console.warn(
    'services/memory/dist is not built: chat memory tests use a stand-in memory server (build @care/memory for the real one)',
  );
  const store = new Map<string, Array<{ id: string; text: string; tags: string[] }>>();
  const { server, url } = await listen((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      if (req.headers['x-api-key'] !== API_KEY) return void res.writeHead(401).end();
      const tenant = String(req.headers['x-tenant-id'] ?? 'default');
      const body = raw ? JSON.parse(raw) : {};
      const list = store.get(tenant) ?? [];
      store.set(tenant, list);
      res.setHeader('content-type', 'application/json');
      if (req.url === '/api/v1/memory/remember') {
        const id = `m${list.length + 1}`;
        list.push({ id, text: body.text, tags: body.tags ?? [] });
        return void res.end(JSON.stringify({ id }));
      }
      if (req.url === '/api/v1/memory/recall') {
        const words = new Set(String(body.query).toLowerCase().split(/\W+/));
        const tagsAny: string[] | undefined = body.filter?.tagsAny;
        const results = list
          .filter((m) => !tagsAny || m.tags.some((t) => tagsAny.includes(t)))
          .filter((m) =>
            m.text
              .toLowerCase()
              .split(/\W+/)
              .some((w) => w.length > 3 && words.has(w)),
          )
          .map((m) => ({ ...m, score: 1 }));
        return void res.end(JSON.stringify({ results }));
      }
      res.writeHead(404).end('{}');
    });
  });
  return { url, apiKey: API_KEY, kind: 'stand-in', close: () => closeServer(server) };
}
