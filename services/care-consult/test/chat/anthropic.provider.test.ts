import type { ServerResponse } from 'node:http';
import { AnthropicProvider } from '../../src/providers/anthropic.provider';
import { ProviderError } from '../../src/providers/provider.errors';
import { aProviderRequest, readToolSpec } from './builders/provider-request.builder';
import { collect, pause, sseFrame, startWireServer, type WireServer } from './support/wire-server';

// The Messages API stream: named SSE events message_start, content_block_start/delta/stop, message_delta,
// message_stop, ping, and error.
const messageStart = {
  type: 'message_start',
  message: {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    content: [],
    model: 'test-claude',
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 5, output_tokens: 1 },
  },
};
const send = (res: ServerResponse, data: { type: string } & Record<string, unknown>) =>
  res.write(sseFrame(data.type, data));
const textDelta = (index: number, text: string) => ({
  type: 'content_block_delta',
  index,
  delta: { type: 'text_delta', text },
});
const stop = (reason: string) => ({
  type: 'message_delta',
  delta: { stop_reason: reason, stop_sequence: null },
  usage: { output_tokens: 9 },
});

function provider(server: WireServer) {
  return new AnthropicProvider({
    apiKey: 'ak-test',
    baseUrl: server.url,
    model: 'test-claude',
    maxRetries: 0,
  });
}

function head(res: ServerResponse) {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
}

describe('Anthropic provider against a Messages API SSE server', () => {
  let server: WireServer | undefined;
  afterEach(() => server?.close());

  it('streams text_delta events, ignores pings, and sends the key, system prompt and max_tokens', async () => {
    server = await startWireServer((_req, res) => {
      head(res);
      send(res, messageStart);
      send(res, { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
      send(res, { type: 'ping' });
      send(res, textDelta(0, 'Hello'));
      send(res, textDelta(0, ' world'));
      send(res, { type: 'content_block_stop', index: 0 });
      send(res, stop('end_turn'));
      send(res, { type: 'message_stop' });
      res.end();
    });
    const events = await collect(provider(server).stream(aProviderRequest().asking('hi').build()));
    expect(events).toEqual([
      { type: 'text', text: 'Hello' },
      { type: 'text', text: ' world' },
      { type: 'end', reason: 'stop' },
    ]);
    const [req] = server.requests;
    expect(req.path).toBe('/v1/messages');
    // SDK 1.x sends the key as a bearer token; older ones used x-api-key. Either way the key must travel.
    expect(req.headers['x-api-key'] ?? req.headers.authorization).toMatch(/^(Bearer )?ak-test$/);
    expect(req.body).toMatchObject({
      model: 'test-claude',
      system: 'You are a test agent.',
      stream: true,
      max_tokens: 1024,
    });
    expect(req.body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]);
  });

  it('assembles a tool_use block from input_json_delta pieces and returns results inside one user turn', async () => {
    server = await startWireServer((_req, res) => {
      head(res);
      send(res, messageStart);
      send(res, { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
      send(res, textDelta(0, 'Let me check.'));
      send(res, { type: 'content_block_stop', index: 0 });
      send(res, {
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'tool_use', id: 'toolu_1', name: 'read_skill_reference', input: {} },
      });
      send(res, {
        type: 'content_block_delta',
        index: 1,
        delta: { type: 'input_json_delta', partial_json: '{"skill": "asthma-' },
      });
      send(res, {
        type: 'content_block_delta',
        index: 1,
        delta: { type: 'input_json_delta', partial_json: 'education", "reference": "x.md"}' },
      });
      send(res, { type: 'content_block_stop', index: 1 });
      send(res, stop('tool_use'));
      send(res, { type: 'message_stop' });
      res.end();
    });
    const p = provider(server);
    const events = await collect(
      p.stream(aProviderRequest().asking('asthma').withTools(readToolSpec).build()),
    );
    expect(events).toEqual([
      { type: 'text', text: 'Let me check.' },
      {
        type: 'tool_call',
        call: {
          id: 'toolu_1',
          name: 'read_skill_reference',
          arguments: { skill: 'asthma-education', reference: 'x.md' },
        },
      },
      { type: 'end', reason: 'tool_calls' },
    ]);
    expect(server.requests[0].body.tools).toEqual([
      {
        name: readToolSpec.name,
        description: readToolSpec.description,
        input_schema: readToolSpec.parameters,
      },
    ]);
    const call = (events[1] as any).call;
    await collect(
      p.stream(
        aProviderRequest()
          .asking('asthma')
          .withMessages(
            { role: 'assistant', content: 'Let me check.', toolCalls: [call] },
            { role: 'tool', content: 'doc text', toolCallId: 'toolu_1', toolName: call.name },
            {
              role: 'tool',
              content: 'refused',
              toolCallId: 'toolu_2',
              toolName: 'save_memory',
              isError: true,
            },
          )
          .build(),
      ),
    );
    expect(server.requests[1].body.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me check.' },
          { type: 'tool_use', id: 'toolu_1', name: 'read_skill_reference', input: call.arguments },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'doc text' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: 'refused', is_error: true },
        ],
      },
    ]);
  });

  it('turns an error event in the middle of the stream into a ProviderError naming the error type', async () => {
    server = await startWireServer((_req, res) => {
      head(res);
      send(res, messageStart);
      send(res, { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
      send(res, textDelta(0, 'partial'));
      send(res, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
      res.end();
    });
    const seen: unknown[] = [];
    const err = await (async () => {
      for await (const e of provider(server!).stream(aProviderRequest().asking('hi').build())) seen.push(e);
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as Error).message).toContain('overloaded_error');
    expect(seen).toEqual([{ type: 'text', text: 'partial' }]);
  });

  it('reports an HTTP error status as a ProviderError', async () => {
    server = await startWireServer((_req, res) => {
      res.writeHead(529, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }));
    });
    const err = await collect(provider(server).stream(aProviderRequest().asking('hi').build())).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).upstreamStatus).toBe(529);
  });

  it('stops and closes the connection when the signal aborts mid-stream', async () => {
    server = await startWireServer(async (_req, res, state) => {
      head(res);
      send(res, messageStart);
      send(res, { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
      for (let i = 0; i < 200 && !state.closed(); i++) {
        send(res, textDelta(0, `t${i} `));
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
