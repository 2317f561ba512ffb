import http from 'node:http';
import { createLogger, startServer } from '@care/service-kit';
import type { ChatStreamRegistry } from '../../src/chat/chat.routes';
import { aUser } from '../builders/user.builder';
import type { TestContext } from '../support/test-app';
import { createChatContext } from './support/chat-app';
import { ScriptedProvider, says } from './support/scripted-provider';
import { names, parseSse } from './support/sse';

describe('chat streams at shutdown', () => {
  let ctx: TestContext;
  const streams: ChatStreamRegistry = {};
  beforeAll(async () => {
    // A slow answer: the stream is still open when shutdown begins.
    ctx = await createChatContext({
      overrides: {
        streams,
        chatProvider: new ScriptedProvider(() => ({
          events: says('one two three four five six seven eight'),
          delayMs: 400,
        })),
      },
    });
  });
  afterAll(() => ctx.close());

  it('keeps an open stream going through the drain window, then ends it with an error frame and done', async () => {
    const running = await startServer({
      app: ctx.app,
      port: 0,
      host: '127.0.0.1',
      logger: createLogger({ name: 't', level: 'silent' }),
      drainMs: 900,
      shutdownTimeoutMs: 3000,
    });
    streams.track = running.trackStream;
    const body = JSON.stringify({
      messages: [{ role: 'user', content: 'Tips for a calmer evening?' }],
      agent_id: 'stress-resilience-coach',
    });
    let firstFrame!: () => void;
    const opened = new Promise<void>((r) => (firstFrame = r));
    const received = new Promise<string>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: running.port,
          method: 'POST',
          path: '/api/chat',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${aUser().inTenant('t-shutdown').token()}`,
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => {
            text += c;
            if (text.includes('event: message')) firstFrame();
          });
          res.on('end', () => resolve(text));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    await opened;
    const t0 = Date.now();
    await running.shutdown('test');
    const frames = parseSse(await received);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    expect(names(frames)[0]).toBe('message');
    expect(names(frames).slice(-2)).toEqual(['error', 'done']);
    expect(frames.at(-2)!.json).toMatchObject({ type: 'error', code: 'SERVICE_SHUTTING_DOWN' });
    // Tokens kept flowing during the drain window.
    expect(names(frames)).toContain('token');
  });
});
