import { OpenAiProvider } from '../../src/providers/openai.provider';
import { ProviderError } from '../../src/providers/provider.errors';
import { aProviderRequest, readToolSpec } from './builders/provider-request.builder';
import { collect, pause, sseFrame, startWireServer, type WireServer } from './support/wire-server';

// Chunks as the chat-completions API streams them: `data: <chunk>` frames, then `data: [DONE]`.
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'test-model',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

function provider(server: WireServer) {
  return new OpenAiProvider({
    apiKey: 'sk-test',
    baseUrl: `${server.url}/v1`,
    model: 'test-model',
    maxRetries: 0,
  });
}

function sseHead(res: import('node:http').ServerResponse) {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
}

describe('OpenAI-compatible provider against a chat-completions SSE server', () => {
  let server: WireServer | undefined;
  afterEach(() => server?.close());

  it('streams text deltas and ends on data: [DONE], sending the key, model, system prompt and stream flag', async () => {
    server = await startWireServer((_req, res) => {
      sseHead(res);
      res.write(sseFrame(null, chunk({ role: 'assistant', content: '' })));
      res.write(sseFrame(null, chunk({ content: 'Hello' })));
      res.write(sseFrame(null, chunk({ content: ' there' })));
      res.write(sseFrame(null, chunk({}, 'stop')));
      res.end(sseFrame(null, '[DONE]'));
    });
    const events = await collect(provider(server).stream(aProviderRequest().asking('hi').build()));
    expect(events).toEqual([
      { type: 'text', text: 'Hello' },
      { type: 'text', text: ' there' },
      { type: 'end', reason: 'stop' },
    ]);
    const [req] = server.requests;
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe('Bearer sk-test');
    expect(req.body).toMatchObject({ model: 'test-model', stream: true });
    expect(req.body.messages).toEqual([
      { role: 'system', content: 'You are a test agent.' },
      { role: 'user', content: 'hi' },
    ]);
    expect(req.body.tools).toBeUndefined();
  });

  it('assembles a tool call whose arguments arrive in fragments and sends tool results back as tool messages', async () => {
    server = await startWireServer((req, res) => {
      sseHead(res);
      if (req.body.messages.some((m: any) => m.role === 'tool')) {
        res.write(sseFrame(null, chunk({ content: 'done' }, 'stop')));
        return void res.end(sseFrame(null, '[DONE]'));
      }
      res.write(
        sseFrame(
          null,
          chunk({
            role: 'assistant',
            tool_calls: [
              {
                index: 0,
                id: 'call_9',
                type: 'function',
                function: { name: 'read_skill_reference', arguments: '' },
              },
            ],
          }),
        ),
      );
      res.write(
        sseFrame(null, chunk({ tool_calls: [{ index: 0, function: { arguments: '{"skill":"sleep-' } }] })),
      );
      res.write(
        sseFrame(
          null,
          chunk({ tool_calls: [{ index: 0, function: { arguments: 'hygiene","reference":"a.md"}' } }] }),
        ),
      );
      res.write(sseFrame(null, chunk({}, 'tool_calls')));
      res.end(sseFrame(null, '[DONE]'));
    });
    const p = provider(server);
    const first = await collect(
      p.stream(aProviderRequest().asking('sleep?').withTools(readToolSpec).build()),
    );
    expect(first).toEqual([
      {
        type: 'tool_call',
        call: {
          id: 'call_9',
          name: 'read_skill_reference',
          arguments: { skill: 'sleep-hygiene', reference: 'a.md' },
        },
      },
      { type: 'end', reason: 'tool_calls' },
    ]);
    expect(server.requests[0].body.tools[0]).toEqual({ type: 'function', function: readToolSpec });
    const call = (first[0] as any).call;
    await collect(
      p.stream(
        aProviderRequest()
          .asking('sleep?')
          .withMessages(
            { role: 'assistant', content: '', toolCalls: [call] },
            { role: 'tool', content: 'doc', toolCallId: 'call_9', toolName: call.name },
          )
          .build(),
      ),
    );
    expect(server.requests[1].body.messages.slice(2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_9',
            type: 'function',
            function: {
              name: 'read_skill_reference',
              arguments: '{"skill":"sleep-hygiene","reference":"a.md"}',
            },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_9', content: 'doc' },
    ]);
  });

  it('turns an error object in the middle of the stream into a ProviderError after the text already sent', async () => {
    server = await startWireServer((_req, res) => {
      sseHead(res);
      res.write(sseFrame(null, chunk({ content: 'partial' })));
      res.end(
        sseFrame(null, { error: { message: 'upstream overloaded', type: 'server_error', code: null } }),
      );
    });
    const seen: unknown[] = [];
    const run = async () => {
      for await (const e of provider(server!).stream(aProviderRequest().asking('hi').build())) seen.push(e);
    };
    await expect(run()).rejects.toBeInstanceOf(ProviderError);
    expect(seen).toEqual([{ type: 'text', text: 'partial' }]);
  });

  it('reports an HTTP error status without echoing the vendor body', async () => {
    server = await startWireServer((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: { message: 'Incorrect API key provided: sk-test', type: 'invalid_request_error' },
        }),
      );
    });
    const err = await collect(provider(server).stream(aProviderRequest().asking('hi').build())).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).upstreamStatus).toBe(401);
    expect((err as ProviderError).message).not.toContain('sk-test');
  });

  it('stops reading and closes the connection when the signal aborts mid-stream', async () => {
    server = await startWireServer(async (_req, res, state) => {
      sseHead(res);
      for (let i = 0; i < 200 && !state.closed(); i++) {
        res.write(sseFrame(null, chunk({ content: `t${i} ` })));
        await pause(5);
      }
      res.end(sseFrame(null, '[DONE]'));
    });
    const ctrl = new AbortController();
    const seen: unknown[] = [];
    const run = async () => {
      for await (const e of provider(server!).stream(
        aProviderRequest().asking('hi').withSignal(ctrl.signal).build(),
      )) {
        seen.push(e);
        if (seen.length === 3) ctrl.abort();
      }
    };
    await expect(run()).rejects.toMatchObject({ name: expect.stringMatching(/Abort/) });
    await server.clientClosed;
    expect(seen.length).toBeLessThan(10);
  });
});
