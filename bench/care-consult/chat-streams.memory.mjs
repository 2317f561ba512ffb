// Child process of chat-streams.mjs for the grounded phase: the memory service's own app (built dist, in-process
// PGlite, hashing embeddings so no model loads) on a loopback port, with one knowledge-base passage per bench tenant
// that matches the bench question, so every grounded turn retrieves and cites it. Stops when the parent says so.
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, '../../services/memory/dist');
const require = createRequire(path.join(dist, '..', 'package.json'));
const { createApp } = require(path.join(dist, 'app.js'));
const { loadMemoryConfig } = require(path.join(dist, 'config.js'));
const { openMemoryDatabase } = require(path.join(dist, 'db', 'open-database.js'));
const { HashingEmbeddingProvider } = require(path.join(dist, 'embeddings', 'hashing.provider.js'));
const { createLogger } = require('@care/service-kit');

const API_KEY = 'bench-memory-key-0123456789';
const config = loadMemoryConfig({
  API_KEY,
  EMBEDDING_PROVIDER: 'hashing',
  DATABASE_URI: 'pglite://memory',
  LOG_LEVEL: 'error',
});
const database = await openMemoryDatabase({ uri: 'pglite://memory' });
const logger = createLogger({
  name: 'bench-memory',
  level: 'error',
  destination: new Writable({ write: (_c, _e, cb) => cb() }),
});
const server = http.createServer(
  createApp({ config, logger, database, embeddings: new HashingEmbeddingProvider() }),
);
await new Promise((r) => server.listen(0, '127.0.0.1', 2048, r));
const url = `http://127.0.0.1:${server.address().port}`;
const tenants = JSON.parse(process.argv[2]);
for (const tenant of tenants) {
  const docId = '7b1e9c3a-5f2d-4e8b-9a61-0d4c8e2f6a10';
  const res = await fetch(`${url}/api/v1/memory/remember`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-tenant-id': tenant, 'x-api-key': API_KEY },
    body: JSON.stringify({
      id: `kb:${docId}:0`,
      text: 'A calmer bedtime routine\n\nKeep the same bedtime and wake time every day, dim the lights an hour before bed, put screens away, and keep the bedroom cool and dark. A short wind-down (reading, a warm shower, slow breathing) helps you sleep better.',
      type: 'SEMANTIC',
      source: 'DOCUMENT',
      tags: ['kb', `kbdoc:${docId}`],
    }),
  });
  if (!res.ok) throw new Error(`seeding the knowledge base failed: ${res.status}`);
}
process.send({ type: 'ready', url, apiKey: API_KEY });
process.on('message', async (m) => {
  if (m.type === 'stop') {
    server.closeAllConnections();
    server.close();
    await database.close();
    process.exit(0);
  }
});
