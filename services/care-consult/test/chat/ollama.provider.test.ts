import type { ServerResponse } from 'node:http';
import { OllamaProvider } from '../../src/providers/ollama.provider';
import { ProviderError } from '../../src/providers/provider.errors';
import { aProviderRequest, readToolSpec } from './builders/provider-request.builder';
import { collect, pause, startWireServer, type WireServer } from './support/wire-server';

// Ollama's /api/chat streams NDJSON: one object per line, `done: true` on the last, `{error}` on failure.
const line = (res: ServerResponse, obj: unknown) => res.write(`${JSON.stringify(obj)}\n`);
const part = (content: string, extra: Record<string, unknown> = {}) => ({
  model: 'llama-test',
  created_at: '2026-01-01T00:00:00Z',
  message: { role: 'assistant', content, ...extra },
  done: false,
});
const last = (reason = 'stop') => ({
  model: 'llama-test',
  created_at: '2026-01-01T00:00:01Z',
  message: { role: 'assistant', content: '' },
  done: true,
  done_reason: reason,
  eval_count: 3,
});

function provider(server: WireServer) {
  return new OllamaProvider({ baseUrl: `${server.url}/`, model: 'llama-test' });
}

describe('Ollama provider against an /api/chat NDJSON server', () => {
  let server: WireServer | undefined;
  afterEach(() => server?.close());

  it('streams message.content lines until done, even when lines are split across network chunks', async () => {
    server = await startWireServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      const body = [part('Hel'), part('lo'), last()].map((o) => JSON.stringify(o)).join('\n') + '\n';
      res.write(body.slice(0, 30));
      await pause(5);
      res.end(body.slice(30));
    });
    const events = await collect(provider(server).stream(aProviderRequest().asking('hi').build()));
    expect(events).toEqual([
      { type: 'text', text: 'Hel' },
      { type: 'text', text: 'lo' },
      { type: 'end', reason: 'stop' },
    ]);
    const [req] = server.requests;
    expect(req.path).toBe('/api/chat');
    expect(req.body).toMatchObject({ model: 'llama-test', stream: true });
    expect(req.body.messages[0]).toEqual({ role: 'system', content: 'You are a test agent.' });
  });

  it('passes tools and reads tool_calls with object arguments, sending results back by tool name', async () => {
    server = await startWireServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      line(
        res,
        part('', {
          tool_calls: [
            {
              function: {
                name: 'read_skill_reference',
                arguments: { skill: 'sleep-hygiene', reference: 'sleep-habits.md' },
              },
            },
          ],
        }),
      );
      line(res, last());
      res.end();
    });
    const p = provider(server);
    const events = await collect(
      p.stream(aProviderRequest().asking('sleep').withTools(readToolSpec).build()),
    );
    expect(events).toEqual([
      {
        type: 'tool_call',
        call: {
          id: 'ollama_call_0',
          name: 'read_skill_reference',
          arguments: { skill: 'sleep-hygiene', reference: 'sleep-habits.md' },
        },
      },
      { type: 'end', reason: 'tool_calls' },
    ]);
    expect(server.requests[0].body.tools).toEqual([{ type: 'function', function: readToolSpec }]);
    await collect(
      p.stream(
        aProviderRequest()
          .asking('sleep')
          .withMessages(
            { role: 'assistant', content: '', toolCalls: [(events[0] as any).call] },
            { role: 'tool', content: 'doc', toolCallId: 'ollama_call_0', toolName: 'read_skill_reference' },
          )
          .build(),
      ),
    ).catch(() => undefined);
    expect(server.requests[1].body.messages.slice(2)).toEqual([
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          {
            function: {
              name: 'read_skill_reference',
              arguments: { skill: 'sleep-hygiene', reference: 'sleep-habits.md' },
            },
          },
        ],
      },
      { role: 'tool', content: 'doc', tool_name: 'read_skill_reference' },
    ]);
  });

  it('turns an error line in the middle of the stream into a ProviderError', async () => {
    server = await startWireServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      line(res, part('partial'));
      line(res, { error: 'model runner has unexpectedly stopped' });
      res.end();
    });
    const seen: unknown[] = [];
    const err = await (async () => {
      for await (const e of provider(server!).stream(aProviderRequest().asking('hi').build())) seen.push(e);
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(seen).toEqual([{ type: 'text', text: 'partial' }]);
  });

  it('treats a stream that ends without done as a failure, not as a complete answer', async () => {
    server = await startWireServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      line(res, part('cut'));
      res.end();
    });
    await expect(
      collect(provider(server).stream(aProviderRequest().asking('hi').build())),
    ).rejects.toBeInstanceOf(ProviderError);
  });

  it('reports a 404 for an unknown model as a ProviderError with the status', async () => {
    server = await startWireServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: "model 'llama-test' not found" }));
    });
    const err = await collect(provider(server).stream(aProviderRequest().asking('hi').build())).catch(
      (e: unknown) => e,
    );
    expect((err as ProviderError).upstreamStatus).toBe(404);
  });

  it('reports an unreachable server as a ProviderError', async () => {
    const p = new OllamaProvider({ baseUrl: 'http://127.0.0.1:9', model: 'x' });
    await expect(collect(p.stream(aProviderRequest().asking('hi').build()))).rejects.toBeInstanceOf(
      ProviderError,
    );
  });

  it('stops and closes the connection when the signal aborts mid-stream', async () => {
    server = await startWireServer(async (_req, res, state) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      for (let i = 0; i < 200 && !state.closed(); i++) {
        line(res, part(`t${i} `));
        await pause(5);
      }
      res.end();
    });
    const ctrl = new AbortController();
    const seen: unknown[] = [];
    const err = await (async () => {
      for await (const e of provider(server!).stream(
        aProviderRequest().asking('hi').withSignal(ctrl.signal).build(),
      )) {
        seen.push(e);
        if (seen.length === 2) ctrl.abort();
      }
    })().catch((e: unknown) => e);
    expect((err as Error).name).toBe('AbortError');
    await server.clientClosed;
    expect(seen.length).toBeLessThan(10);
  });
});
