import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { SSE_HEADERS, SseWriter } from '../../src/chat/sse-writer';
import { loadConsoleSseParser, parseSse } from './support/sse';

/** Serves one SSE response driven by `script`, and returns the raw body the client received. */
async function serve(
  script: (w: SseWriter) => Promise<void> | void,
  heartbeatMs = 0,
): Promise<{ body: string; headers: http.IncomingHttpHeaders }> {
  const server = http.createServer(async (_req, res) => {
    const w = new SseWriter(res, { heartbeatMs, headers: { 'X-Thread-Id': 't1' } });
    w.open();
    await script(w);
    w.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  try {
    return await new Promise((resolve, reject) => {
      http
        .get({ port, host: '127.0.0.1' }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (body += c));
          res.on('end', () => resolve({ body, headers: res.headers }));
        })
        .on('error', reject);
    });
  } finally {
    server.close();
  }
}

describe('SSE writer', () => {
  it('sends the spec headers and frames with id, event and data lines', async () => {
    const { body, headers } = await serve((w) => {
      w.send('message', { type: 'message', role: 'assistant' });
      w.send('done', '[DONE]');
    });
    for (const [k, v] of Object.entries(SSE_HEADERS)) expect(headers[k.toLowerCase()]).toBe(v);
    expect(headers['x-thread-id']).toBe('t1');
    expect(body).toBe(
      'id: 1\nevent: message\ndata: {"type":"message","role":"assistant"}\n\nid: 2\nevent: done\ndata: [DONE]\n\n',
    );
  });

  it('writes heartbeat comments while idle, which parsers ignore', async () => {
    const { body } = await serve(async (w) => {
      w.send('message', { type: 'message' });
      await new Promise((r) => setTimeout(r, 120));
      w.send('done', '[DONE]');
    }, 20);
    expect(body).toMatch(/\n: heartbeat\n\n/);
    expect(parseSse(body).map((f) => f.event)).toEqual(['message', 'done']);
  });

  it('splits multi-line data into several data lines and drops sends after the end', async () => {
    const { body } = await serve((w) => {
      w.send('note', 'line one\nline two');
      w.end();
      expect(w.send('late', 'x')).toBe(false);
    });
    expect(body).toBe('id: 1\nevent: note\ndata: line one\ndata: line two\n\n');
    const seen: string[] = [];
    const parser = loadConsoleSseParser()((f) => seen.push(f.data));
    parser.push(body);
    expect(seen).toEqual(['line one\nline two']);
  });

  it('round-trips any JSON payload through the console parser, however the body is cut into chunks', () => {
    const createParser = loadConsoleSseParser();
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('token', 'tool_end', 'message'), fc.jsonValue()), { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        (events, cuts) => {
          let raw = '';
          const res = {
            write: (c: string) => (raw += c),
            cork: () => undefined,
            uncork: () => undefined,
            writeHead: () => undefined,
            flushHeaders: () => undefined,
            once: () => undefined,
            end: (c?: string) => (raw += c ?? ''),
            destroyed: false,
            writableEnded: false,
          };
          const w = new SseWriter(res as unknown as http.ServerResponse, { heartbeatMs: 0 });
          for (const [event, data] of events) w.send(event, { data });
          w.end();
          const seen: Array<{ event: string; data: string }> = [];
          const parser = createParser((f) => seen.push(f));
          const points = [...new Set(cuts.map((c) => c % (raw.length + 1)))].sort((a, b) => a - b);
          let at = 0;
          for (const p of [...points, raw.length]) {
            parser.push(raw.slice(at, p));
            at = p;
          }
          parser.end();
          expect(seen.map((f) => [f.event, JSON.parse(f.data).data])).toEqual(
            events.map(([e, d]) => [e, JSON.parse(JSON.stringify(d))]),
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('sends the headers with the first frame as soon as the handler returns, and later frames of one loop turn together', async () => {
    // What each socket write carried, as text.
    const writes: string[] = [];
    const text = (c: unknown): string =>
      typeof c === 'string' ? c : Buffer.from(c as Uint8Array).toString('utf8');
    const server = http.createServer((_req, res) => {
      const socket = res.socket as unknown as {
        _write: (...a: unknown[]) => void;
        _writev: (...a: unknown[]) => void;
      };
      const write = socket._write.bind(socket);
      const writev = socket._writev.bind(socket);
      socket._write = (chunk, ...rest) => (writes.push(text(chunk)), write(chunk, ...rest));
      socket._writev = (chunks, ...rest) => (
        writes.push((chunks as Array<{ chunk: unknown }>).map((c) => text(c.chunk)).join('')),
        writev(chunks, ...rest)
      );
      const w = new SseWriter(res, { heartbeatMs: 0 });
      w.open();
      w.send('message', { type: 'message' });
      void Promise.resolve()
        .then(() => w.send('tool_start', { type: 'tool_start' }))
        .then(() => w.send('tool_end', { type: 'tool_end' }))
        .then(() => setTimeout(() => (w.send('done', '[DONE]'), w.end()), 30));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    try {
      const body = await new Promise<string>((resolve, reject) => {
        http
          .get({ port, host: '127.0.0.1' }, (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => (text += c));
            res.on('end', () => resolve(text));
          })
          .on('error', reject);
      });
      expect(parseSse(body).map((f) => f.event)).toEqual(['message', 'tool_start', 'tool_end', 'done']);
      // Headers + the first frame in the first socket write (before promise callbacks run); the two frames
      // sent from promise callbacks in the second; the later frame and the end of the body in the third.
      expect(writes).toHaveLength(3);
      expect(writes[0]).toMatch(/^HTTP\/1\.1 200[\s\S]*event: message\n/);
      expect(writes[0]).not.toContain('tool_start');
      expect(writes[1]).toMatch(/event: tool_start\n[\s\S]*event: tool_end\n/);
      expect(writes[2]).toMatch(/event: done\n[\s\S]*\r\n0\r\n\r\n$/);
    } finally {
      server.close();
    }
  });

  it('sends the headers on their own when no frame follows in the same turn, so the client sees the stream open', async () => {
    let finish = () => undefined as void;
    const server = http.createServer((_req, res) => {
      const w = new SseWriter(res, { heartbeatMs: 0 });
      w.open();
      finish = () => (w.send('done', '[DONE]'), w.end());
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    try {
      const status = await new Promise<number | undefined>((resolve, reject) => {
        http
          .get({ port, host: '127.0.0.1' }, (res) => {
            resolve(res.statusCode);
            res.resume();
          })
          .on('error', reject);
      });
      expect(status).toBe(200);
      finish();
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('leaves the next response on a kept-alive connection intact when a stream ends with writes still corked', async () => {
    let n = 0;
    const server = http.createServer((_req, res) => {
      const w = new SseWriter(res, { heartbeatMs: 0 });
      w.open();
      w.send('message', { n: ++n });
      w.send('done', '[DONE]');
      w.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ body: string; socket: unknown }>((resolve, reject) => {
        const req = http.get({ port, host: '127.0.0.1', agent }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (body += c));
          res.on('end', () => resolve({ body, socket: req.socket }));
        });
        req.on('error', reject);
      });
    try {
      const results = [];
      for (let i = 0; i < 5; i++) results.push(await get());
      expect(results.map((r) => parseSse(r.body).map((f) => f.data))).toEqual(
        [1, 2, 3, 4, 5].map((k) => [JSON.stringify({ n: k }), '[DONE]']),
      );
      expect(new Set(results.map((r) => r.socket)).size).toBe(1);
    } finally {
      agent.destroy();
      server.close();
    }
  });
});
