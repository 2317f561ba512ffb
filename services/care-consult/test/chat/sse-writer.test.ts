import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { SSE_HEADERS, SseWriter } from '../../src/chat/sse-writer';
import { loadConsoleSseParser, parseSse } from './support/sse';

/** Serves one SSE response driven by `script`, and returns the raw body the client received. */
async function serve(script: (w: SseWriter) => Promise<void> | void, heartbeatMs = 0): Promise<{ body: string; headers: http.IncomingHttpHeaders }> {
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
    expect(body).toBe('id: 1\nevent: message\ndata: {"type":"message","role":"assistant"}\n\nid: 2\nevent: done\ndata: [DONE]\n\n');
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
      fc.property(fc.array(fc.tuple(fc.constantFrom('token', 'tool_end', 'message'), fc.jsonValue()), { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 10 }), (events, cuts) => {
        let raw = '';
        const res = { write: (c: string) => (raw += c), cork: () => undefined, uncork: () => undefined, writeHead: () => undefined, flushHeaders: () => undefined, once: () => undefined, end: () => undefined, destroyed: false, writableEnded: false };
        const w = new SseWriter(res as unknown as http.ServerResponse, { heartbeatMs: 0 });
        for (const [event, data] of events) w.send(event, { data });
        const seen: Array<{ event: string; data: string }> = [];
        const parser = createParser((f) => seen.push(f));
        const points = [...new Set(cuts.map((c) => c % (raw.length + 1)))].sort((a, b) => a - b);
        let at = 0;
        for (const p of [...points, raw.length]) {
          parser.push(raw.slice(at, p));
          at = p;
        }
        parser.end();
        expect(seen.map((f) => [f.event, JSON.parse(f.data).data])).toEqual(events.map(([e, d]) => [e, JSON.parse(JSON.stringify(d))]));
      }),
      { numRuns: 200 },
    );
  });
});
