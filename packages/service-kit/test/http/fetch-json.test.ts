// fetchJson against a real node:http server on 127.0.0.1: method, headers and JSON body on the wire, the status and
// parsed answer, and each failure kind (timeout, connect, status, invalid JSON) with a message free of secrets.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fetchJson, FetchJsonError, joinUrl, safeUrl } from '../../src';

interface Seen {
  method?: string;
  url?: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let server: http.Server;
let base: string;
const seen: Seen[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({
        method: req.method,
        url: req.url,
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      });
      const path = req.url ?? '';
      if (path === '/echo') {
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ got: Buffer.concat(chunks).toString() }));
      } else if (path === '/fail') {
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end('{"detail":"secret-body-text"}');
      } else if (path === '/not-json') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>secret-body-text</html>');
      } else if (path === '/empty') {
        res.writeHead(204);
        res.end();
      } else if (path === '/slow') {
        setTimeout(() => {
          if (!res.destroyed) res.end('{}');
        }, 2000).unref();
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"ok":true}');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen.length = 0;
});

async function failureOf(p: Promise<unknown>): Promise<FetchJsonError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FetchJsonError);
  return err as FetchJsonError;
}

describe('fetchJson', () => {
  it('GETs with accept json and returns the status and parsed body', async () => {
    const answer = await fetchJson<{ ok: boolean }>(`${base}/status`, {
      timeoutMs: 1000,
      headers: { 'x-api-key': 'k' },
    });
    expect(answer).toEqual({ status: 200, ok: true, body: { ok: true } });
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/status' });
    expect(seen[0]!.headers).toMatchObject({ accept: 'application/json', 'x-api-key': 'k' });
    expect(seen[0]!.headers['content-type']).toBeUndefined();
  });

  it('POSTs a JSON body with content-type, other methods on request', async () => {
    const answer = await fetchJson<{ got: string }>(`${base}/echo`, {
      body: { a: 1, b: ['x'] },
      timeoutMs: 1000,
    });
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.body!.got)).toEqual({ a: 1, b: ['x'] });
    expect(seen[0]).toMatchObject({ method: 'POST', headers: { 'content-type': 'application/json' } });
    await fetchJson(`${base}/empty`, { method: 'DELETE', timeoutMs: 1000 });
    expect(seen[1]).toMatchObject({ method: 'DELETE', url: '/empty', body: '' });
  });

  it('answers 204 with no body, and reads nothing with read: none', async () => {
    expect(await fetchJson(`${base}/empty`, { timeoutMs: 1000 })).toEqual({
      status: 204,
      ok: true,
      body: undefined,
    });
    expect(await fetchJson(`${base}/not-json`, { timeoutMs: 1000, read: 'none' })).toEqual({
      status: 200,
      ok: true,
      body: undefined,
    });
  });

  it('a non-2xx status is a `status` failure naming only the status, or an answer with requireOk: false', async () => {
    const err = await failureOf(fetchJson(`${base}/fail`, { timeoutMs: 1000 }));
    expect(err).toMatchObject({ kind: 'status', status: 503, message: 'HTTP 503' });
    expect(await fetchJson(`${base}/fail`, { timeoutMs: 1000, requireOk: false })).toEqual({
      status: 503,
      ok: false,
      body: undefined,
    });
  });

  it('a body that is not JSON is `invalid-json` without echoing the body', async () => {
    const err = await failureOf(fetchJson(`${base}/not-json`, { timeoutMs: 1000 }));
    expect(err).toMatchObject({ kind: 'invalid-json', status: 200, message: 'invalid JSON answer' });
    expect(err.message).not.toContain('secret-body-text');
  });

  it('no answer in time is `timeout`', async () => {
    const err = await failureOf(fetchJson(`${base}/slow`, { timeoutMs: 100 }));
    expect(err).toMatchObject({ kind: 'timeout', message: 'no answer within 100 ms' });
  });

  it('a refused connection is `connect`, and the message never carries the URL or its credentials', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const err = await failureOf(
      fetchJson(`http://127.0.0.1:${port}/x`, {
        timeoutMs: 1000,
        headers: { authorization: 'Bearer top-secret' },
      }),
    );
    expect(err).toMatchObject({ kind: 'connect', message: 'connection refused' });
    expect(`${err.message} ${err.stack}`).not.toContain('top-secret');
  });

  it("rethrows the caller's own abort unchanged (a cancelled call is not an outage)", async () => {
    const controller = new AbortController();
    const reason = new Error('client went away');
    setTimeout(() => controller.abort(reason), 50);
    await expect(fetchJson(`${base}/slow`, { timeoutMs: 5000, signal: controller.signal })).rejects.toBe(
      reason,
    );
  });

  it('uses an injected fetch', async () => {
    const fetchFn = jest.fn(async () => new Response('{"n":1}', { status: 200 }));
    expect((await fetchJson('http://nowhere.invalid/x', { timeoutMs: 10, fetchFn })).body).toEqual({ n: 1 });
    expect(fetchFn).toHaveBeenCalledTimes(1);
  });
});

describe('joinUrl', () => {
  it.each([
    ['http://h/v1', 'models', 'http://h/v1/models'],
    ['http://h/v1/', '/models', 'http://h/v1/models'],
    ['http://h/v1//', '//embeddings', 'http://h/v1/embeddings'],
    ['http://h', 'api/v1/system/health', 'http://h/api/v1/system/health'],
  ])('%s + %s = %s', (b, p, expected) => {
    expect(joinUrl(b, p)).toBe(expected);
  });
});

describe('safeUrl', () => {
  it('drops userinfo and the trailing slash, and is empty for a non-URL', () => {
    expect(safeUrl('https://user:pass@memory.internal:7070/')).toBe('https://memory.internal:7070');
    expect(safeUrl('not a url')).toBe('');
  });
});
