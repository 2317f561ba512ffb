import request from 'supertest';
import { checkDocumentedResponse, openOperations } from '@care/contracts';
import { createMetrics, listRoutes } from '@care/service-kit';
import { compareRoutes, lintOpenApi } from '@care/service-kit/testing';
import { aUser } from './builders/user.builder';
import { FILES, multipart } from './support/multipart';
import type { TestContext } from './support/test-app';
import { chat, createChatContext } from './chat/support/chat-app';
import { ScriptedProvider, says } from './chat/support/scripted-provider';
import { names } from './chat/support/sse';
import { CONSOLE_VENDOR_FILES } from '../src/console/console.routes';

type Doc = Record<string, unknown> & { paths: Record<string, Record<string, { security?: unknown[] }>> };

describe('GET /openapi.json (care-consult)', () => {
  let ctx: TestContext;
  let doc: Doc;
  const alice = aUser().inTenant('tenant-doc').withId('alice-doc');
  const admin = aUser().inTenant('tenant-doc').withId('admin-doc').withRole('TENANT_ADMIN');
  const auth = (u = alice) => ({ Authorization: `Bearer ${u.token()}` });
  const provider = new ScriptedProvider(() => ({ events: says('Keep a regular bedtime.') }));

  beforeAll(async () => {
    ctx = await createChatContext({
      overrides: { chatProvider: provider },
      env: { RELAY_SIGNING_KEY: 'relay-signing-key-of-at-least-32-characters' },
    });
    const res = await request(ctx.app).get('/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body as Doc;
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('is served without a token as an OpenAPI 3.1 document; /api still needs one', async () => {
    expect(doc.openapi).toBe('3.1.0');
    expect((await request(ctx.app).get('/api/agents')).status).toBe(401);
    expect((await request(ctx.app).get('/api/openapi.json')).status).toBe(401);
  });

  it('passes redocly lint (recommended rules, repo redocly.yaml) without errors or warnings', async () => {
    const result = await lintOpenApi(doc);
    expect(result.problems).toEqual([]);
    expect(result.errors + result.warnings).toBe(0);
  }, 120_000);

  it('documents every mounted route and nothing that is not mounted, with and without the prometheus route', async () => {
    expect(compareRoutes(listRoutes(ctx.app), doc)).toEqual({ undocumented: [], unmounted: [] });
    expect(Object.keys(doc.paths)).not.toContain('/actuator/prometheus');
    const dev = await createChatContext({
      env: { APP_PROFILES_ACTIVE: 'dev' },
      overrides: { metrics: createMetrics('care-consult-doc-test') },
    });
    try {
      const devDoc = (await request(dev.app).get('/openapi.json')).body as Doc;
      expect(Object.keys(devDoc.paths)).toContain('/actuator/prometheus');
      expect(compareRoutes(listRoutes(dev.app), devDoc)).toEqual({ undocumented: [], unmounted: [] });
    } finally {
      await dev.close();
    }
  });

  it('the comparison fails for a missing operation or a documented one that is not mounted', () => {
    const trimmed = { ...doc, paths: { ...doc.paths } };
    delete trimmed.paths['/api/chat/threads/{thread_id}'];
    expect(compareRoutes(listRoutes(ctx.app), trimmed).undocumented).toEqual([
      'GET /api/chat/threads/:thread_id',
    ]);
    const extra = { ...doc, paths: { ...doc.paths, '/api/agents/{agentId}/rate': { post: {} } } };
    expect(compareRoutes(listRoutes(ctx.app), extra).unmounted).toEqual(['POST /api/agents/:agentId/rate']);
  });

  it('marks exactly the open endpoints as open', () => {
    expect(openOperations(doc)).toEqual(
      [
        'GET /actuator/health/liveness',
        'GET /api/health',
        'GET /api/relay/callback',
        'GET /console',
        'GET /console/config.json',
        'GET /console/vendor/{file}',
        'GET /favicon.ico',
        'GET /openapi.json',
      ].sort(),
    );
  });

  describe('real responses match the documented schemas', () => {
    const expectDocumented = (method: string, path: string, res: request.Response) => {
      const type = String(res.headers['content-type'] ?? '').split(';')[0];
      const call = `${method} ${path} ${res.status}`;
      expect({
        call,
        issues: checkDocumentedResponse(doc, method, path, res.status, res.body, type),
      }).toEqual({ call, issues: [] });
    };

    it('health', async () => {
      const res = await request(ctx.app).get('/api/health');
      expect([200, 503]).toContain(res.status);
      expectDocumented('get', '/api/health', res);
    });

    it('chat: the stream is event-stream; the thread history matches its schema', async () => {
      const threadId = `doc-${Date.now()}`;
      const { res, frames } = await chat(ctx.app, alice.token(), {
        messages: [{ role: 'user', content: 'How can I sleep better?' }],
        agent_id: 'sleep-coach',
        thread_id: threadId,
      });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(names(frames).at(-1)).toBe('done');
      const history = await request(ctx.app).get(`/api/chat/threads/${threadId}`).set(auth());
      expect(history.status).toBe(200);
      expect(history.body.checkpoints.length).toBe(1);
      expectDocumented('get', '/api/chat/threads/:thread_id', history);
      const threads = await request(ctx.app).get('/api/chat/threads').set(auth());
      expect(threads.status).toBe(200);
      expect(threads.body.threads.map((t: { thread_id: string }) => t.thread_id)).toContain(threadId);
      expectDocumented('get', '/api/chat/threads', threads);
    });

    it('catalog: agents (filtered and searched), categories, agent, skills, skill', async () => {
      for (const q of ['', '?domain=wellness', '?query=sleep&limit=3']) {
        const list = await request(ctx.app).get(`/api/agents${q}`).set(auth());
        expect(list.status).toBe(200);
        expect(list.body.agents.length).toBeGreaterThan(0);
        expectDocumented('get', '/api/agents', list);
      }
      expectDocumented(
        'get',
        '/api/agents/categories',
        await request(ctx.app).get('/api/agents/categories').set(auth()),
      );
      const agent = await request(ctx.app).get('/api/agents/sleep-coach').set(auth());
      expect(agent.status).toBe(200);
      expectDocumented('get', '/api/agents/:agentId', agent);
      const skills = await request(ctx.app).get('/api/skills').set(auth());
      expect(skills.body.skills.length).toBeGreaterThan(0);
      expectDocumented('get', '/api/skills', skills);
      const skill = await request(ctx.app).get(`/api/skills/${skills.body.skills[0].id}`).set(auth());
      expect(skill.status).toBe(200);
      expectDocumented('get', '/api/skills/:skillId', skill);
    });

    it('models and audit', async () => {
      const models = await request(ctx.app).get('/api/models').set(auth());
      expect(models.status).toBe(200);
      expectDocumented('get', '/api/models', models);
      await ctx.deps.audit.flush();
      const audit = await request(ctx.app).get('/api/audit?limit=5').set(auth(admin));
      expect(audit.status).toBe(200);
      expect(audit.body.items.length).toBeGreaterThan(0);
      expectDocumented('get', '/api/audit', audit);
    });

    it('attachments: upload, list, one, content', async () => {
      const m = multipart('notes.txt', FILES.text);
      const created = await request(ctx.app)
        .post('/api/attachments')
        .set(auth())
        .set('Content-Type', m.contentType)
        .send(m.body);
      expect(created.status).toBe(201);
      expectDocumented('post', '/api/attachments', created);
      expectDocumented('get', '/api/attachments', await request(ctx.app).get('/api/attachments').set(auth()));
      expectDocumented(
        'get',
        '/api/attachments/:id',
        await request(ctx.app).get(`/api/attachments/${created.body.id}`).set(auth()),
      );
      expect(
        (await request(ctx.app).get(`/api/attachments/${created.body.id}/content`).set(auth())).status,
      ).toBe(200);
    });

    it('relay: ticket issue, callback redirect, rejection', async () => {
      const issued = await request(ctx.app).post('/api/relay/tickets').set(auth()).send({
        profile_id: 'p1',
        connection_id: 'c1',
        callback_url: 'http://127.0.0.1:9/cb',
        ttl_seconds: 60,
      });
      expect(issued.status).toBe(201);
      expectDocumented('post', '/api/relay/tickets', issued);
      const redirect = await request(ctx.app).get(
        `/api/relay/callback?code=abc&state=${encodeURIComponent(issued.body.ticket)}`,
      );
      expect(redirect.status).toBe(302);
      expect(
        Object.keys(
          (doc.paths['/api/relay/callback'].get as { responses: Record<string, unknown> }).responses,
        ),
      ).toContain('302');
      const rejected = await request(ctx.app).get('/api/relay/callback?code=abc&state=forged');
      expect(rejected.status).toBe(400);
      expectDocumented('get', '/api/relay/callback', rejected);
    });

    it('console settings', async () => {
      const res = await request(ctx.app).get('/console/config.json');
      expect(res.status).toBe(200);
      expectDocumented('get', '/console/config.json', res);
      expect((await request(ctx.app).get('/console/')).status).toBe(200);
      const vendor = Object.keys(CONSOLE_VENDOR_FILES)[0];
      const script = await request(ctx.app).get(`/console/vendor/${vendor}`);
      expect(script.status).toBe(200);
      expect(
        Object.keys(
          (
            doc.paths['/console/vendor/{file}'].get as {
              responses: Record<string, { content?: Record<string, unknown> }>;
            }
          ).responses['200'].content ?? {},
        ),
      ).toEqual([String(script.headers['content-type']).split(';')[0]]);
    });

    it('a body that disagrees with the document fails the check', () => {
      expect(
        checkDocumentedResponse(doc, 'get', '/api/agents', 200, {
          total: 1,
          limit: 10,
          agents: [{ id: 'x' }],
        }),
      ).not.toEqual([]);
      expect(checkDocumentedResponse(doc, 'get', '/api/health', 200, { status: 'fine' })).not.toEqual([]);
    });
  });
});
