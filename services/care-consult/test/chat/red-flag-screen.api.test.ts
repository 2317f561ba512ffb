import { BuiltinProvider } from '../../src/providers/builtin/builtin.provider';
import { RedFlagScreen, detectRedFlag, type TextEmbedder } from '../../src/safety';
import { aUser } from '../builders/user.builder';
import type { TestContext } from '../support/test-app';
import { chat, createChatContext } from './support/chat-app';
import { ScriptedProvider, says } from './support/scripted-provider';
import { names } from './support/sse';
import { startWireServer, type WireServer } from './support/wire-server';

// An emergency only the semantic stage catches (no suicide keyword), and one the rules catch.
const SEMANTIC_ONLY = "i'm on the top floor of the car park and i don't want to be here any more";
const RULE_HIT = "my dad's face is drooping and he can't lift his arm";
const BENIGN = 'How do I build a better bedtime routine?';
const ask = (content: string, earlier: string[] = []) => ({
  messages: [
    ...earlier.flatMap((c) => [
      { role: 'user', content: c },
      { role: 'assistant', content: 'ok' },
    ]),
    { role: 'user', content },
  ],
  agent_id: 'sleep-coach',
});

it('the semantic-only message is one the rules alone miss', () => {
  expect(detectRedFlag(SEMANTIC_ONLY)).toBeNull();
});

// Each vendor is faked at the HTTP level; any model call would reach the fake server. A benign request shows
// the fake is really the one configured (it is called); the emergencies must not reach it.
const vendors: Array<[string, (url: string) => Record<string, string>]> = [
  ['openai', (url) => ({ LLM_PROVIDER: 'openai', LLM_API_KEY: 'sk-test', LLM_BASE_URL: `${url}/v1` })],
  ['anthropic', (url) => ({ LLM_PROVIDER: 'anthropic', ALT_LLM_API_KEY: 'ak-test', ALT_LLM_BASE_URL: url })],
  ['ollama', (url) => ({ LLM_PROVIDER: 'ollama', LOCAL_LLM_BASE_URL: url })],
];

describe.each(vendors)('every chat request is screened before the %s model is called', (vendor, env) => {
  let server: WireServer;
  let ctx: TestContext;
  const token = aUser().inTenant(`tenant-screen-${vendor}`).token();
  const modelCalls = () => server.requests.filter((r) => r.method === 'POST').length;
  beforeAll(async () => {
    server = await startWireServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'scripted failure' } }));
    });
    ctx = await createChatContext({ env: env(server.url) });
  });
  afterAll(async () => {
    await ctx.close();
    await server.close();
  });

  it.each([
    ['a rule hit', RULE_HIT, []],
    ['a semantic-only emergency', SEMANTIC_ONLY, []],
    [
      'an emergency completed by an earlier turn',
      'and now he is really drowsy and keeps falling asleep',
      ['we pulled my son out of the pool 20 minutes ago'],
    ],
  ])('%s is refused without a model call', async (_name, content, earlier) => {
    const { frames } = await chat(ctx.app, token, ask(content as string, earlier as string[]));
    expect(names(frames)).toEqual(['message', 'refusal', 'done']);
    expect(frames[0].json).toMatchObject({ provider: 'safety', model: 'red-flag-detector' });
    expect(frames[1].json).toMatchObject({
      reason: 'emergency_red_flag',
      message: expect.stringMatching(/emergency number/),
    });
    expect(modelCalls()).toBe(0);
  });

  it('a benign request does reach the configured fake vendor', async () => {
    await chat(ctx.app, token, ask(BENIGN));
    expect(modelCalls()).toBeGreaterThan(0);
  });
});

describe('every chat request is screened before the offline engine is called', () => {
  let ctx: TestContext;
  const token = aUser().inTenant('tenant-screen-offline').token();
  let spy: jest.SpyInstance;
  beforeAll(async () => {
    spy = jest.spyOn(BuiltinProvider.prototype, 'stream');
    ctx = await createChatContext({ env: { LLM_PROVIDER: 'offline' } });
  });
  afterAll(async () => {
    spy.mockRestore();
    await ctx.close();
  });

  it('refuses a semantic-only emergency and a rule hit without calling the engine, and answers a benign question', async () => {
    for (const content of [SEMANTIC_ONLY, RULE_HIT]) {
      const { frames } = await chat(ctx.app, token, ask(content));
      expect(names(frames)).toEqual(['message', 'refusal', 'done']);
    }
    expect(spy).not.toHaveBeenCalled();
    const { frames } = await chat(ctx.app, token, ask(BENIGN));
    expect(names(frames)).toContain('token');
    expect(spy).toHaveBeenCalled();
  });
});

describe('a screen that cannot run', () => {
  let ctx: TestContext;
  const provider = new ScriptedProvider(() => ({ events: says('should never be sent') }));
  const token = aUser().inTenant('tenant-screen-broken').token();
  beforeAll(async () => {
    const broken: TextEmbedder = {
      warm: async () => undefined,
      embed: async () => Promise.reject(new Error('encoder crashed')),
    };
    ctx = await createChatContext({
      overrides: { chatProvider: provider, redFlagScreen: new RedFlagScreen({ embedder: broken }) },
    });
  });
  afterAll(() => ctx.close());

  it('answers 503 problem+json and calls no model (never lets the request through unscreened)', async () => {
    const { res, problem } = await chat(ctx.app, token, ask(BENIGN));
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toMatch(/problem\+json/);
    expect(problem).toMatchObject({ code: 'SAFETY_SCREEN_UNAVAILABLE' });
    expect(provider.requests.length).toBe(0);
  });
});
