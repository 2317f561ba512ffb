import { readSse, startCluster, type Cluster } from './support/cluster';

// The three built services as separate processes on loopback, wired as in production: platform-auth forwards
// chat to care-consult, care-consult and platform-auth call memory. Nothing is mocked.
let cluster: Cluster;
const tenant = `clinic-${Date.now().toString(36)}`;
const other = `${tenant}-b`;
const user = { email: `nurse@${tenant}.test`, password: 'correct horse battery staple 1' };
const outsider = { email: `viewer@${other}.test`, password: 'another long passphrase 22' };
let adminToken = '';
let userToken = '';
let outsiderToken = '';

async function json(url: string, init: RequestInit & { token?: string } = {}) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...(init.headers as Record<string, string>),
  };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  const res = await fetch(url, { ...init, headers });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, body };
}

async function login(email: string, password: string): Promise<string> {
  const r = await json(`${cluster.auth.url}/api/v1/auth/login`, {
    method: 'POST',
    body: JSON.stringify({ email, password }),
  });
  expect(r.status).toBe(200);
  return r.body.idToken;
}

beforeAll(async () => {
  cluster = await startCluster();
  adminToken = await login(cluster.admin.email, cluster.admin.password);
  for (const [id, name] of [
    [tenant, 'Clinic A'],
    [other, 'Clinic B'],
  ]) {
    const t = await json(`${cluster.auth.url}/api/v1/tenants`, {
      method: 'POST',
      token: adminToken,
      body: JSON.stringify({ id, name }),
    });
    expect(t.status).toBe(201);
  }
  const u = await json(`${cluster.auth.url}/api/v1/users`, {
    method: 'POST',
    token: adminToken,
    body: JSON.stringify({ ...user, roles: ['USER'], tenantId: tenant }),
  });
  expect(u.status).toBe(201);
  const v = await json(`${cluster.auth.url}/api/v1/users`, {
    method: 'POST',
    token: adminToken,
    body: JSON.stringify({ ...outsider, roles: ['VIEWER'], tenantId: other }),
  });
  expect(v.status).toBe(201);
  userToken = await login(user.email, user.password);
  outsiderToken = await login(outsider.email, outsider.password);
}, 180000);

afterAll(async () => {
  await cluster?.stop();
});

describe('the platform across real processes', () => {
  it('answers every health endpoint the specs name', async () => {
    expect((await json(`${cluster.auth.url}/actuator/health`)).body.status).toBe('UP');
    // The memory probe is cached briefly; a probe that timed out while the cluster was still warming up may say
    // `degraded` for a while, so poll until the cached result is renewed.
    let consult = await json(`${cluster.consult.url}/api/health`);
    for (let i = 0; i < 40 && consult.body.status !== 'ok'; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      consult = await json(`${cluster.consult.url}/api/health`);
    }
    expect(consult.body).toMatchObject({ status: 'ok', workspace: { agentsCount: 50, skillsCount: 20 } });
    expect(consult.body.memoryBackend).toMatchObject({ reachable: true });
    expect((await json(`${cluster.memory.url}/api/v1/system/health`)).body.status).toBe('UP');
  });

  it('answers a malformed JSON body with a 400 problem carrying a request id on every service', async () => {
    for (const url of [
      `${cluster.auth.url}/api/v1/auth/login`,
      `${cluster.consult.url}/api/chat`,
      `${cluster.memory.url}/api/v1/memory/recall`,
    ]) {
      const r = await json(url, { method: 'POST', body: '{"messages": [' });
      expect(r.status).toBe(400);
      expect(r.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(r.body.requestId).toEqual(expect.any(String));
    }
  });

  it('streams a consultation through platform-auth to care-consult with the platform token', async () => {
    const res = await fetch(`${cluster.auth.url}/api/v1/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${userToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        messages: [{ role: 'user', content: 'How can I sleep better when I work night shifts?' }],
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const frames = await readSse(res);
    const events = frames.map((f) => f.event);
    expect(events[0]).toBe('message');
    expect(events).toContain('token');
    expect(events.indexOf('suggestions')).toBeGreaterThan(events.lastIndexOf('token'));
    expect(events.at(-1)).toBe('done');
    expect(frames.at(-1)!.data).toBe('[DONE]');
    const threadId = JSON.parse(frames[0].data).thread_id;
    const history = await json(`${cluster.auth.url}/api/v1/chat/threads/${threadId}`, { token: userToken });
    expect(history.status).toBe(200);
    // Another tenant cannot read the thread, directly at care-consult either.
    const foreign = await json(`${cluster.consult.url}/api/chat/threads/${threadId}`, {
      token: outsiderToken,
    });
    expect(foreign.status).toBe(404);
  });

  it('refuses an emergency with the safety breaker and no model answer', async () => {
    const res = await fetch(`${cluster.consult.url}/api/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${userToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        messages: [{ role: 'user', content: "My husband's face is drooping and he can't lift his arm" }],
      }),
    });
    const frames = await readSse(res);
    expect(frames.map((f) => f.event)).toEqual(['message', 'refusal', 'done']);
    expect(JSON.parse(frames[1].data)).toMatchObject({
      type: 'refusal',
      reason: 'emergency_red_flag',
      category: 'stroke_fast',
    });
  });

  it('denies a viewer the chat write scope at the front door', async () => {
    const r = await json(`${cluster.auth.url}/api/v1/chat`, {
      method: 'POST',
      token: outsiderToken,
      body: JSON.stringify({ messages: [{ role: 'user', content: 'hello' }] }),
    });
    expect(r.status).toBe(403);
  });

  it('answers from a knowledge-base document uploaded through platform-auth, citing it, and finds it with KB search', async () => {
    const doc = await json(`${cluster.auth.url}/api/v1/kb/documents`, {
      method: 'POST',
      token: userToken,
      body: JSON.stringify({
        title: 'Insulin pen storage',
        content:
          'Keep unopened insulin pens in the fridge.\n\nOnce opened, an insulin pen can be kept at room temperature for up to 28 days. Never freeze insulin.',
      }),
    });
    expect(doc.status).toBe(201);
    expect(doc.body.indexStatus).toBe('INDEXED');
    const search = await json(
      `${cluster.auth.url}/api/v1/kb/search?q=${encodeURIComponent('opened insulin pen room temperature')}`,
      { token: userToken },
    );
    expect(search.status).toBe(200);
    expect(search.body.items[0]).toMatchObject({
      documentId: doc.body.id,
      title: 'Insulin pen storage',
      text: expect.stringContaining('28 days'),
    });
    const res = await fetch(`${cluster.auth.url}/api/v1/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${userToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        messages: [{ role: 'user', content: 'How long can an opened insulin pen stay at room temperature?' }],
      }),
    });
    const frames = await readSse(res);
    const answer = frames
      .filter((f) => f.event === 'token')
      .map((f) => JSON.parse(f.data).content)
      .join('');
    expect(answer).toContain('28 days');
    const sources = JSON.parse(frames.find((f) => f.event === 'suggestions')!.data).sources;
    expect(sources[0]).toMatchObject({ kind: 'kb', title: 'Insulin pen storage', document_id: doc.body.id });
  });

  it('indexes a knowledge-base document into the tenant partition of the memory service', async () => {
    const doc = await json(`${cluster.auth.url}/api/v1/kb/documents`, {
      method: 'POST',
      token: userToken,
      body: JSON.stringify({
        title: 'Clinic parking',
        content: 'Patients park free of charge in the blue garage on Elm Street.',
      }),
    });
    expect(doc.status).toBe(201);
    const recall = await json(`${cluster.memory.url}/api/v1/memory/recall`, {
      method: 'POST',
      headers: { 'x-tenant-id': tenant, 'x-api-key': cluster.secrets.memoryKey },
      body: JSON.stringify({ query: 'where can patients park', topK: 5 }),
    });
    expect(recall.status).toBe(200);
    expect(recall.body.results.map((r: { text: string }) => r.text).join(' ')).toMatch(/blue garage/);
    const elsewhere = await json(`${cluster.memory.url}/api/v1/memory/recall`, {
      method: 'POST',
      headers: { 'x-tenant-id': other, 'x-api-key': cluster.secrets.memoryKey },
      body: JSON.stringify({ query: 'where can patients park', topK: 5 }),
    });
    expect(elsewhere.body.results.map((r: { text: string }) => r.text).join(' ')).not.toMatch(/blue garage/);
    // Memory is not open: no key is 401 (ADR 0007).
    const anonymous = await json(`${cluster.memory.url}/api/v1/memory/recall`, {
      method: 'POST',
      headers: { 'x-tenant-id': tenant },
      body: JSON.stringify({ query: 'where can patients park', topK: 5 }),
    });
    expect(anonymous.status).toBe(401);
  });

  it('relays an OAuth callback to the loopback runtime with a ticket issued for the platform user', async () => {
    const issued = await json(`${cluster.consult.url}/api/relay/tickets`, {
      method: 'POST',
      token: userToken,
      body: JSON.stringify({
        profile_id: 'p1',
        connection_id: 'c1',
        callback_url: 'http://127.0.0.1:53682/callback',
        ttl_seconds: 60,
      }),
    });
    expect(issued.status).toBe(201);
    const ticket = issued.body.ticket as string;
    const cb = await fetch(
      `${cluster.consult.url}/api/relay/callback?code=authcode-Zq81xK&state=${encodeURIComponent(ticket)}`,
      { redirect: 'manual' },
    );
    expect(cb.status).toBe(302);
    const location = new URL(cb.headers.get('location')!);
    expect(location.origin + location.pathname).toBe('http://127.0.0.1:53682/callback');
    expect(location.searchParams.get('code')).toBe('authcode-Zq81xK');
    expect(location.searchParams.get('state')).toBe(ticket);
    const replay = await fetch(
      `${cluster.consult.url}/api/relay/callback?code=authcode-Zq81xK&state=${encodeURIComponent(ticket)}`,
      { redirect: 'manual' },
    );
    expect(replay.status).toBe(400);
    expect(replay.headers.get('location')).toBeNull();
  });

  it('never prints passwords, secrets, tokens or authorization codes, and every service drains and exits cleanly', async () => {
    const printed = [cluster.auth, cluster.consult, cluster.memory].map((s) => s.output.join('')).join('\n');
    for (const secret of [
      cluster.admin.password,
      user.password,
      cluster.secrets.jwt,
      cluster.secrets.relay,
      userToken,
      'authcode-Zq81xK',
    ]) {
      expect(printed).not.toContain(secret);
    }
    const codes = await cluster.stop();
    expect(codes).toEqual({ 'platform-auth': 0, 'care-consult': 0, memory: 0 });
  });
});
