// MemoryClient against a real node:http server: the wire format of each call (method, path, X-Tenant-Id,
// X-API-Key, JSON body), the typed answers, and the error model (unavailable / rejected, caller abort rethrown).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MemoryCallError, MemoryClient } from '../src';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

const seen: Seen[] = [];
let reply: (req: Seen, res: http.ServerResponse) => void;
let server: http.Server;
let baseUrl: string;

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString();
      const s: Seen = {
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: text ? JSON.parse(text) : undefined,
      };
      seen.push(s);
      reply(s, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen.length = 0;
});

const recalled = {
  id: 'kb:1:0',
  text: 'Title\n\nBody',
  type: 'SEMANTIC',
  source: 'DOCUMENT',
  tier: 'semantic',
  tags: ['kb'],
  score: 0.8,
  resolved: false,
  createdAt: '2030-01-01T00:00:00.000Z',
  signals: {
    vectorRank: 1,
    vectorSimilarity: 0.9,
    textRank: null,
    textScore: null,
    relevance: 0.9,
    ageDays: 0,
    recency: 1,
    strength: 1,
    tierWeight: 1,
    score: 0.8,
  },
};

describe('MemoryClient wire format', () => {
  const client = () => new MemoryClient({ baseUrl, apiKey: 'memory-key', timeoutMs: 1000 });

  it('recall POSTs the request with the tenant and key headers and returns the results', async () => {
    reply = (_s, res) => json(res, 200, { query: 'q', topK: 5, partition: 't1', results: [recalled] });
    const results = await client().recall('t1', { query: 'walks', topK: 5, filter: { tagsAny: ['kb'] } });
    expect(results).toEqual([recalled]);
    expect(seen[0]).toMatchObject({
      method: 'POST',
      url: '/api/v1/memory/recall',
      body: { query: 'walks', topK: 5, filter: { tagsAny: ['kb'] } },
      headers: {
        'x-tenant-id': 't1',
        'x-api-key': 'memory-key',
        'content-type': 'application/json',
        accept: 'application/json',
      },
    });
  });

  it('recall without results in the answer is an empty list', async () => {
    reply = (_s, res) => json(res, 200, {});
    expect(await client().recall('t1', { query: 'x' })).toEqual([]);
  });

  it('remember POSTs one memory and returns its id', async () => {
    reply = (_s, res) => json(res, 201, { id: 'm-1', text: 'x' });
    const memory = {
      id: 'm-1',
      text: 'walks daily',
      type: 'EPISODIC' as const,
      source: 'USER_STATED' as const,
      tags: ['user:u1'],
    };
    expect(await client().remember('t2', memory)).toBe('m-1');
    expect(seen[0]).toMatchObject({
      method: 'POST',
      url: '/api/v1/memory/remember',
      body: memory,
      headers: { 'x-tenant-id': 't2' },
    });
  });

  it('rememberBatch POSTs the items and returns the outcomes', async () => {
    reply = (_s, res) => json(res, 200, { items: [{ id: 'kb:d:0', outcome: 'created' }] });
    const items = [
      {
        id: 'kb:d:0',
        text: 'Doc\n\nBody',
        type: 'SEMANTIC' as const,
        source: 'DOCUMENT' as const,
        tags: ['kb'],
      },
    ];
    expect(await client().rememberBatch('t3', { items })).toEqual({
      items: [{ id: 'kb:d:0', outcome: 'created' }],
    });
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/api/v1/memory/remember/batch', body: { items } });
  });

  it('forget DELETEs the encoded id, without a body, and accepts an empty answer', async () => {
    reply = (_s, res) => {
      res.writeHead(204);
      res.end();
    };
    await client().forget('t4', 'kb:a/b:0');
    expect(seen[0]).toMatchObject({
      method: 'DELETE',
      url: '/api/v1/memory/kb%3Aa%2Fb%3A0',
      body: undefined,
      headers: { 'x-tenant-id': 't4' },
    });
  });

  it('isHealthy GETs the health endpoint with the key and no tenant', async () => {
    reply = (_s, res) => json(res, 200, { status: 'UP' });
    expect(await client().isHealthy()).toBe(true);
    expect(seen[0]).toMatchObject({
      method: 'GET',
      url: '/api/v1/system/health',
      headers: { 'x-api-key': 'memory-key' },
    });
    expect(seen[0]!.headers['x-tenant-id']).toBeUndefined();
    reply = (_s, res) => json(res, 503, { status: 'DOWN' });
    expect(await client().isHealthy()).toBe(false);
  });

  it('sends no X-API-Key without a key, and strips trailing slashes of the base URL', async () => {
    reply = (_s, res) => json(res, 200, { results: [] });
    const noKey = new MemoryClient({ baseUrl: `${baseUrl}//` });
    expect(noKey.url).toBe(baseUrl.replace(/\/$/, ''));
    await noKey.recall('t', { query: 'x' });
    expect(seen[0]!.url).toBe('/api/v1/memory/recall');
    expect(seen[0]!.headers['x-api-key']).toBeUndefined();
  });
});

describe('MemoryClient errors', () => {
  const client = (timeoutMs = 1000) => new MemoryClient({ baseUrl, apiKey: 'memory-key', timeoutMs });
  const errorOf = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      (e: unknown) => e as MemoryCallError,
    );

  it('a 4xx is rejected with its status, a 5xx unavailable, neither echoing the body or key', async () => {
    reply = (_s, res) => json(res, 409, { detail: 'secret body' });
    const rejected = await errorOf(client().remember('t', { text: 'x', type: 'SEMANTIC', source: 'SYSTEM' }));
    expect(rejected).toBeInstanceOf(MemoryCallError);
    expect(rejected).toMatchObject({ kind: 'rejected', status: 409, message: 'memory service answered 409' });
    reply = (_s, res) => json(res, 503, {});
    expect(await errorOf(client().recall('t', { query: 'x' }))).toMatchObject({
      kind: 'unavailable',
      status: 503,
    });
    expect(String(rejected)).not.toMatch(/secret body|memory-key/);
  });

  it('an unreadable answer and a timeout are unavailable', async () => {
    reply = (_s, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>');
    };
    expect(await errorOf(client().recall('t', { query: 'x' }))).toMatchObject({
      kind: 'unavailable',
      status: 200,
      message: 'memory service sent an unreadable answer',
    });
    reply = () => undefined; // never answers
    expect(await errorOf(client(100).recall('t', { query: 'x' }))).toMatchObject({
      kind: 'unavailable',
      status: undefined,
      message: 'memory service unreachable or too slow',
    });
  });

  it("a per-call bound wins over the client's, and the caller's abort is rethrown as is", async () => {
    reply = () => undefined;
    const started = Date.now();
    expect(await errorOf(client(5000).recall('t', { query: 'x' }, { timeoutMs: 100 }))).toMatchObject({
      kind: 'unavailable',
    });
    expect(Date.now() - started).toBeLessThan(3000);
    const controller = new AbortController();
    const reason = new Error('chat cancelled');
    setTimeout(() => controller.abort(reason), 50);
    await expect(client(5000).recall('t', { query: 'x' }, { signal: controller.signal })).rejects.toBe(
      reason,
    );
  });
});
