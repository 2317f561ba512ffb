import request from 'supertest';
import { sharedSentenceEncoder } from '@care/sentence-encoder';
import { ProviderError } from '../../src/providers/provider.errors';
import { aUser } from '../builders/user.builder';
import type { TestContext } from '../support/test-app';
import { chat, createChatContext } from './support/chat-app';
import { ScriptedProvider, says } from './support/scripted-provider';
import { names, parseSse, type Frame } from './support/sse';

const ask = (content: string, extra: Record<string, unknown> = {}) => ({
  messages: [{ role: 'user', content }],
  ...extra,
});
const text = (frames: Frame[]) =>
  frames
    .filter((f) => f.event === 'token')
    .map((f) => f.json.content)
    .join('');

describe('POST /api/chat with the offline engine over the shipped workspace', () => {
  let ctx: TestContext;
  const user = aUser().inTenant('tenant-chat');
  const token = user.token();
  beforeAll(async () => {
    ctx = await createChatContext();
  });
  afterAll(() => ctx.close());

  it('answers with the spec headers and frames in order: message, tool pair, tokens, suggestions, done', async () => {
    const { res, frames } = await chat(
      ctx.app,
      token,
      ask('How do I build a better bedtime routine?', { agent_id: 'sleep-coach' }),
    );
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(res.headers['cache-control']).toBe('no-cache, no-transform');
    expect(res.headers['connection']).toBe('keep-alive');
    expect(res.headers['x-accel-buffering']).toBe('no');
    const order = names(frames);
    expect(order[0]).toBe('message');
    expect(order.slice(-2)).toEqual(['suggestions', 'done']);
    expect(order.filter((n) => n === 'token').length).toBeGreaterThan(10);
    expect(frames[0].json).toMatchObject({
      type: 'message',
      role: 'assistant',
      agent_id: 'sleep-coach',
      routed: false,
      provider: 'offline',
      offline: true,
    });
    expect(frames.map((f) => Number(f.id))).toEqual(frames.map((_f, i) => i + 1));
    const start = frames.find((f) => f.event === 'tool_start')!;
    const end = frames.find((f) => f.event === 'tool_end')!;
    expect(start.json).toEqual({
      type: 'tool_start',
      tool: 'read_skill_reference',
      params: { skill: expect.any(String), reference: expect.stringMatching(/\.md$/) },
    });
    expect(end.json).toMatchObject({
      type: 'tool_end',
      tool: 'read_skill_reference',
      status: 'success',
      allowed: true,
      result: { bytes: expect.any(Number) },
    });
    expect(end.json.result.bytes).toBeGreaterThan(300);
    expect(typeof end.json.duration_ms).toBe('number');
    const suggestions = frames.find((f) => f.event === 'suggestions')!.json;
    expect(suggestions.items.length).toBeGreaterThan(0);
    expect(suggestions.suggestions).toEqual(suggestions.items);
    expect(frames[frames.length - 1].data).toBe('[DONE]');
    expect(text(frames)).toMatch(/sleep/i);
    expect(res.headers['x-thread-id']).toBe(frames[0].json.thread_id);
  });

  it('routes to a specialist from the catalog when no agent_id is given', async () => {
    const { frames } = await chat(
      ctx.app,
      token,
      ask('I keep waking up at night and cannot get back to sleep'),
    );
    expect(frames[0].json).toMatchObject({ routed: true, agent_id: expect.stringMatching(/sleep/) });
    expect(names(frames).at(-1)).toBe('done');
  });

  it('routes the same whatever the provider: the offline engine and a scripted model get the same agent', async () => {
    const other = await createChatContext({
      overrides: { chatProvider: new ScriptedProvider(() => ({ events: says('Noted.') })) },
    });
    try {
      for (const q of [
        'what helps with morning sickness at 9 weeks',
        'I have a question',
        'how do I read the label on my tablets',
      ]) {
        const a = (await chat(ctx.app, token, ask(q))).frames[0].json;
        const b = (await chat(other.app, token, ask(q))).frames[0].json;
        expect(a).toMatchObject({ routed: true, routing: expect.any(Object) });
        expect(b).toMatchObject({
          routed: true,
          agent_id: a.agent_id,
          routing: { fallback: a.routing.fallback },
        });
      }
    } finally {
      await other.close();
    }
  });

  it('embeds a new message once per turn: routing reuses the vector the emergency screen made', async () => {
    const encoder = sharedSentenceEncoder();
    const before = encoder.modelTexts;
    const message = `My ankle has been stiff every morning since the ${before}th of the month, what stretches help?`;
    const { frames } = await chat(ctx.app, token, ask(message));
    expect(frames[0].json).toMatchObject({ routed: true });
    // A one-sentence first message is one screen segment; the router's own embedding of it is a cache hit.
    expect(encoder.modelTexts - before).toBe(1);
  });

  it('below the routing floor answers with the generalist and offers a clarifying question as the first suggestion', async () => {
    const { frames } = await chat(ctx.app, token, ask('I have a question'));
    expect(frames[0].json).toMatchObject({
      routed: true,
      agent_id: 'care-coordinator',
      routing: { fallback: true, alternatives: expect.any(Array) },
    });
    const suggestions = frames.find((f) => f.event === 'suggestions')!.json;
    expect(suggestions.items[0]).toMatch(/tell me a (little|bit) more/i);
    expect(suggestions.items.length).toBeLessThanOrEqual(3);
    const confident = await chat(ctx.app, token, ask('My insurance denied my claim, how do I appeal?'));
    expect(confident.frames[0].json).toMatchObject({
      agent_id: 'claims-appeals-helper',
      routing: { fallback: false },
    });
    expect(confident.frames.find((f) => f.event === 'suggestions')!.json.items.join(' ')).not.toMatch(
      /tell me a (little|bit) more/i,
    );
  });

  it('refuses a clinical reference without allow_clinical (allowed: false) and reads it with allow_clinical', async () => {
    const q = 'What are the warning signs of a heart attack in women?';
    const off = await chat(ctx.app, token, ask(q, { agent_id: 'cardiology-guide' }));
    const denied = off.frames.find((f) => f.event === 'tool_end' && f.json.tool === 'read_skill_reference')!;
    expect(denied.json).toMatchObject({ allowed: false, status: 'denied', reason: 'clinical_not_allowed' });
    expect(text(off.frames)).toMatch(/clinical information is switched on/);
    // Says plainly what was withheld and how to turn it on, and still gives the general part (the skill summary).
    expect(text(off.frames)).toMatch(/Clinical detail was withheld/);
    expect(text(off.frames)).toMatch(/"allow_clinical": true.*chat\.allowClinical/s);
    expect(text(off.frames)).toMatch(/I can help with:/);
    expect(text(off.frames)).not.toMatch(/could not find anything/);
    const on = await chat(ctx.app, token, ask(q, { agent_id: 'cardiology-guide', allow_clinical: true }));
    const read = on.frames.find((f) => f.event === 'tool_end' && f.json.tool === 'read_skill_reference')!;
    expect(read.json).toMatchObject({
      allowed: true,
      status: 'success',
      result: { skill: 'heart-health-education', reference: 'cardiac-warning-signs.md' },
    });
    expect(text(on.frames)).toMatch(/chest/);
  });

  it('on a red flag sends message, refusal, done and writes an audit event without the message text', async () => {
    const { frames } = await chat(
      ctx.app,
      token,
      ask('My dad suddenly has a drooping face and slurred speech right now', { agent_id: 'sleep-coach' }),
    );
    expect(names(frames)).toEqual(['message', 'refusal', 'done']);
    expect(frames[1].json).toMatchObject({
      type: 'refusal',
      reason: 'emergency_red_flag',
      category: 'stroke_fast',
      message: expect.stringMatching(/emergency|911|112|999/i),
    });
    expect(frames[0].json).toMatchObject({ provider: 'safety' });
    await ctx.deps.audit.flush();
    const audit = await request(ctx.app)
      .get('/api/audit?action=chat.refusal')
      .set('Authorization', `Bearer ${token}`);
    expect(audit.status).toBe(200);
    const item = audit.body.items.find((e: any) => e.resourceId === frames[0].json.thread_id);
    expect(item).toMatchObject({
      action: 'chat.refusal',
      outcome: 'denied',
      meta: expect.objectContaining({ category: 'stroke_fast' }),
    });
    expect(JSON.stringify(item)).not.toMatch(/slurred/);
  });

  it.each([
    ['no body fields', {}],
    ['an empty conversation', { messages: [] }],
    ['an unknown role', { messages: [{ role: 'doctor', content: 'hi' }] }],
    ['an unknown field', { messages: [{ role: 'user', content: 'hi' }], temperature: 2 }],
    ['no user message', { messages: [{ role: 'assistant', content: 'hello' }] }],
    ['a malformed thread id', { messages: [{ role: 'user', content: 'hi' }], thread_id: 'a b' }],
  ])('answers 400 problem+json for %s, before any stream', async (_name, body) => {
    const { res, problem } = await chat(ctx.app, token, body);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(problem.code).toMatch(/VALIDATION/);
  });

  it('answers 404 for an unknown or non-active agent and 401 without a token', async () => {
    expect((await chat(ctx.app, token, ask('hi', { agent_id: 'no-such-agent' }))).res.status).toBe(404);
    expect((await chat(ctx.app, token, ask('hi', { agent_id: 'router' }))).problem.code).toBe(
      'AGENT_NOT_FOUND',
    );
    const res = await request(ctx.app).post('/api/chat').send(ask('hi'));
    expect(res.status).toBe(401);
  });
});

describe('POST /api/chat with a model that misbehaves', () => {
  let ctx: TestContext;
  let provider: ScriptedProvider;
  const token = aUser().inTenant('tenant-script').token();
  beforeAll(async () => {
    provider = new ScriptedProvider((call) =>
      call === 0
        ? {
            events: says('Partial answer'),
            failWith: new ProviderError('openai', 'The OpenAI-compatible model call failed (status 500)'),
          }
        : { events: says('fine') },
    );
    ctx = await createChatContext({ overrides: { chatProvider: provider } });
  });
  afterAll(() => ctx.close());

  it('turns a failure after the stream started into an error frame followed by done', async () => {
    const { res, frames } = await chat(
      ctx.app,
      token,
      ask('Tips for a calmer evening?', { agent_id: 'stress-resilience-coach' }),
    );
    expect(res.status).toBe(200);
    const order = names(frames);
    expect(order.slice(-2)).toEqual(['error', 'done']);
    expect(order).toContain('token');
    expect(frames.at(-2)!.json).toEqual({
      type: 'error',
      code: 'PROVIDER_ERROR',
      message: expect.stringContaining('failed'),
    });
    const history = await request(ctx.app)
      .get(`/api/chat/threads/${frames[0].json.thread_id}`)
      .set('Authorization', `Bearer ${token}`);
    expect(history.body.checkpoints[0]).toMatchObject({ status: 'error', error: { code: 'PROVIDER_ERROR' } });
  });

  it('never calls the model for a red flag', async () => {
    const before = provider.requests.length;
    const { frames } = await chat(ctx.app, token, ask('I took a whole bottle of my pills an hour ago'));
    expect(names(frames)).toEqual(['message', 'refusal', 'done']);
    expect(provider.requests.length).toBe(before);
  });
});

describe('POST /api/chat heartbeats while the model is quiet', () => {
  let ctx: TestContext;
  const token = aUser().inTenant('tenant-heartbeat').token();
  const raw = async (body: unknown): Promise<string> => String((await chat(ctx.app, token, body)).res.body);
  beforeAll(async () => {
    // The model is silent for 250 ms before each word; heartbeats are due after 40 ms of silence.
    const provider = new ScriptedProvider(() => ({ events: says('Slow but steady'), delayMs: 250 }));
    ctx = await createChatContext({
      overrides: { chatProvider: provider },
      env: { CHAT_HEARTBEAT_MS: '40' },
    });
  });
  afterAll(() => ctx.close());

  it('sends comment lines between frames during a pause, and the frames still parse in order', async () => {
    const body = await raw(ask('Tips for a calmer evening?', { agent_id: 'stress-resilience-coach' }));
    const beats = body.match(/^: heartbeat\n\n/gm) ?? [];
    expect(beats.length).toBeGreaterThanOrEqual(3);
    // Between the first and the second token there was a pause, so at least one heartbeat sits between them.
    const firstToken = body.indexOf('event: token');
    const secondToken = body.indexOf('event: token', firstToken + 1);
    expect(body.slice(firstToken, secondToken)).toMatch(/\n: heartbeat\n\n/);
    const frames = parseSse(body);
    expect(names(frames)[0]).toBe('message');
    expect(names(frames).slice(-2)).toEqual(['suggestions', 'done']);
    expect(text(frames)).toBe('Slow but steady');
  });

  it('sends no heartbeat when turned off (CHAT_HEARTBEAT_MS=0)', async () => {
    const quiet = await createChatContext({
      overrides: {
        chatProvider: new ScriptedProvider(() => ({ events: says('Slow answer'), delayMs: 150 })),
      },
      env: { CHAT_HEARTBEAT_MS: '0' },
    });
    try {
      const res = await chat(
        quiet.app,
        token,
        ask('Tips for a calmer evening?', { agent_id: 'stress-resilience-coach' }),
      );
      expect(String(res.res.body)).not.toMatch(/: heartbeat/);
      expect(names(res.frames).at(-1)).toBe('done');
    } finally {
      await quiet.close();
    }
  });
});
