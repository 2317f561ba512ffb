import { buildSystemPrompt } from '../../src/chat/prompt';
import { citedSources } from '../../src/chat/grounding';
import { OpenAiProvider } from '../../src/providers/openai.provider';
import { aProviderRequest } from './builders/provider-request.builder';
import { collect, sseFrame, startWireServer, type WireServer } from './support/wire-server';

const agent = {
  id: 'a',
  name: 'Diabetes Guide',
  persona: 'You are a diabetes guide.',
  clinical: false,
  tools: [],
  skills: [],
  status: 'active',
} as never;
const sources = [
  {
    n: 1,
    kind: 'kb' as const,
    id: 'kb:d:0',
    title: 'Insulin pen storage',
    text: 'Once opened, an insulin pen can be kept at room temperature for up to 28 days.',
    score: 0.8,
  },
  {
    n: 2,
    kind: 'memory' as const,
    id: 'm1',
    title: 'What you told me before',
    text: 'I take metformin 500 mg every morning.',
    score: 0.5,
  },
];

describe('sources in the prompt of hosted models', () => {
  let server: WireServer | undefined;
  afterEach(() => server?.close());

  it('lists the numbered passages with the instruction to cite them, and sends them to an OpenAI-compatible API', async () => {
    const system = buildSystemPrompt({ agent, skills: [], references: [], allowClinical: false, sources });
    expect(system).toContain(
      '[1] Insulin pen storage (knowledge base)\nOnce opened, an insulin pen can be kept at room temperature for up to 28 days.',
    );
    expect(system).toContain(
      '[2] Memory: what this person told you before\nI take metformin 500 mg every morning.',
    );
    expect(system).toMatch(/cite it as \[n\]/);
    server = await startWireServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(
        sseFrame(null, {
          id: 'c',
          object: 'chat.completion.chunk',
          created: 1,
          model: 'm',
          choices: [{ index: 0, delta: { content: 'Up to 28 days [1].' }, finish_reason: 'stop' }],
        }),
      );
      res.end(sseFrame(null, '[DONE]'));
    });
    const provider = new OpenAiProvider({
      apiKey: 'sk-test',
      baseUrl: `${server.url}/v1`,
      model: 'm',
      maxRetries: 0,
    });
    const events = await collect(
      provider.stream({
        ...aProviderRequest().asking('How long can an opened pen stay out?').build(),
        system,
      }),
    );
    const reply = events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('');
    expect(server.requests[0].body.messages[0]).toEqual({ role: 'system', content: system });
    expect(citedSources(reply, sources).map((s) => s.id)).toEqual(['kb:d:0']);
  });

  it('tells the model when nothing matched, so it says so instead of guessing', () => {
    const system = buildSystemPrompt({
      agent,
      skills: [],
      references: [],
      allowClinical: false,
      sources: [],
    });
    expect(system).toMatch(/Nothing in the knowledge base or in this person's memories matched/);
  });
});
