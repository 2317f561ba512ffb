import request from 'supertest';
import { listAuthEvents } from '../src/audit/audit.repository';
import { aUser, bearer, seedUser, type TestUser } from './builders/user.builder';
import { buildApp, openTestDb, type TestApp, type TestDb } from './support/harness';
import { startMemoryStub } from './support/memory-stub';
import { describeEachEngine } from '@care/service-kit/testing';

describeEachEngine('functional areas', (engine) => {
  let t: TestDb;
  let h: TestApp;
  let memory: Awaited<ReturnType<typeof startMemoryStub>>;
  let admin: TestUser, user: TestUser, viewer: TestUser, root: TestUser;
  beforeAll(async () => {
    t = await openTestDb(engine);
    memory = await startMemoryStub();
    h = buildApp(t.db, {
      MEMORY_BASE_URL: memory.url,
      MEMORY_API_KEY: 'memory-key',
      KB_INDEX_TIMEOUT_MS: '300',
      KB_INDEX_BACKOFF_MS: '5',
    });
    admin = await seedUser(t.db, h.hasher, aUser().withRole('TENANT_ADMIN').inTenant('acme').build());
    user = await seedUser(t.db, h.hasher, aUser().withRole('USER').inTenant('acme').build());
    viewer = await seedUser(t.db, h.hasher, aUser().withRole('VIEWER').inTenant('acme').build());
    root = await seedUser(t.db, h.hasher, aUser().withRole('PLATFORM_ADMIN').inTenant('platform').build());
  });
  afterAll(async () => {
    await memory.close();
    await t.close();
  });
  const as = (u: TestUser) => ({ Authorization: bearer(u) });
  const batchIds = (c: { body: unknown }) =>
    ((c.body as { items?: Array<{ id: string }> }).items ?? []).map((i) => i.id);
  const events = async (type: string) =>
    (await t.db.withSystem((tx) => listAuthEvents(tx, { limit: 500 }))).filter((e) => e.type === type);

  describe('users', () => {
    it('creates a user in the caller tenant, never showing the password or hash, and the user can log in', async () => {
      const res = await request(h.app)
        .post('/api/v1/users')
        .set(as(admin))
        .send({ email: 'New.Nurse@Example.test', password: 'nurse-password', roles: ['USER'] });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ email: 'new.nurse@example.test', roles: ['USER'], tenantId: 'acme' });
      expect(JSON.stringify(res.body)).not.toMatch(/password|\$2[aby]\$/);
      const list = await request(h.app).get('/api/v1/users').set(as(admin));
      expect(list.body.items.map((u: { id: string }) => u.id)).toContain(res.body.id);
      expect(JSON.stringify(list.body)).not.toMatch(/password|\$2[aby]\$/);
      expect(
        (
          await request(h.app)
            .post('/api/v1/auth/login')
            .send({ email: 'new.nurse@example.test', password: 'nurse-password' })
        ).status,
      ).toBe(200);
    });

    it('refuses a duplicate email across tenants, short or over-long passwords, and bad roles, writing nothing', async () => {
      const before = (await request(h.app).get('/api/v1/users').set(as(admin))).body.items.length;
      expect(
        (
          await request(h.app)
            .post('/api/v1/users')
            .set(as(admin))
            .send({ email: root.email, password: 'long-enough', roles: ['USER'] })
        ).status,
      ).toBe(409);
      expect(
        (
          await request(h.app)
            .post('/api/v1/users')
            .set(as(admin))
            .send({ email: 'a1@example.test', password: 'short', roles: ['USER'] })
        ).body.code,
      ).toBe('PASSWORD_TOO_SHORT');
      expect(
        (
          await request(h.app)
            .post('/api/v1/users')
            .set(as(admin))
            .send({ email: 'a2@example.test', password: 'p'.repeat(73), roles: ['USER'] })
        ).body.code,
      ).toBe('PASSWORD_TOO_LONG');
      expect(
        (
          await request(h.app)
            .post('/api/v1/users')
            .set(as(admin))
            .send({ email: 'a3@example.test', password: 'long-enough', roles: ['GOD'] })
        ).status,
      ).toBe(400);
      expect(
        (
          await request(h.app)
            .post('/api/v1/users')
            .set(as(admin))
            .send({ email: 'a4@example.test', password: 'long-enough', roles: ['USER'], extra: 1 })
        ).status,
      ).toBe(400);
      expect((await request(h.app).get('/api/v1/users').set(as(admin))).body.items.length).toBe(before);
    });

    it('keeps PLATFORM_ADMIN and other tenants to platform administrators, and audits their cross-tenant calls', async () => {
      const grant = await request(h.app)
        .post('/api/v1/users')
        .set(as(admin))
        .send({ email: 'climber@example.test', password: 'long-enough', roles: ['PLATFORM_ADMIN'] });
      expect(grant.status).toBe(403);
      const foreign = await request(h.app)
        .post('/api/v1/users')
        .set(as(admin))
        .send({ email: 'x@example.test', password: 'long-enough', roles: ['USER'], tenantId: 'platform' });
      expect(foreign.body.code).toBe('CROSS_TENANT_FORBIDDEN');
      const created = await request(h.app)
        .post('/api/v1/users')
        .set(as(root))
        .send({
          email: 'acme-admin2@example.test',
          password: 'long-enough',
          roles: ['TENANT_ADMIN'],
          tenantId: 'acme',
        });
      expect(created.status).toBe(201);
      expect(created.body.tenantId).toBe('acme');
      const listed = await request(h.app).get('/api/v1/users?tenantId=acme').set(as(root));
      expect(listed.body.items.every((u: { tenantId: string }) => u.tenantId === 'acme')).toBe(true);
      const audited = (await events('CROSS_TENANT_ACCESS')).filter((e) => e.userId === root.id);
      expect(audited.map((e) => e.detail.action)).toEqual(
        expect.arrayContaining(['users.create', 'users.list']),
      );
      expect(
        (
          await request(h.app)
            .post('/api/v1/users')
            .set(as(root))
            .send({
              email: 'z@example.test',
              password: 'long-enough',
              roles: ['USER'],
              tenantId: 'no-such-tenant',
            })
        ).status,
      ).toBe(404);
    });

    it('changes roles and passwords, ending the refresh sessions of that user, and deletes users', async () => {
      const target = await seedUser(t.db, h.hasher, aUser().inTenant('acme').build());
      const { refreshToken } = (
        await request(h.app)
          .post('/api/v1/auth/login')
          .send({ email: target.email, password: target.password })
      ).body;
      const patched = await request(h.app)
        .patch(`/api/v1/users/${target.id}`)
        .set(as(admin))
        .send({ roles: ['VIEWER'], password: 'brand-new-pass' });
      expect(patched.status).toBe(200);
      expect(patched.body.roles).toEqual(['VIEWER']);
      expect((await request(h.app).post('/api/v1/auth/refresh').send({ refreshToken })).status).toBe(401);
      expect(
        (
          await request(h.app)
            .post('/api/v1/auth/login')
            .send({ email: target.email, password: 'brand-new-pass' })
        ).status,
      ).toBe(200);
      expect((await request(h.app).delete(`/api/v1/users/${target.id}`).set(as(admin))).status).toBe(204);
      expect((await request(h.app).get(`/api/v1/users/${target.id}`).set(as(admin))).status).toBe(404);
      expect(
        (
          await request(h.app)
            .post('/api/v1/auth/login')
            .send({ email: target.email, password: 'brand-new-pass' })
        ).status,
      ).toBe(401);
      expect(
        (await request(h.app).delete(`/api/v1/users/${root.id}?tenantId=platform`).set(as(admin))).status,
      ).toBe(403);
    });
  });

  describe('tenants', () => {
    it('lets a platform admin create, rename, list and delete tenants through the audited system path', async () => {
      const created = await request(h.app)
        .post('/api/v1/tenants')
        .set(as(root))
        .send({ id: 'initech', name: 'Initech' });
      expect(created.status).toBe(201);
      expect(
        (await request(h.app).post('/api/v1/tenants').set(as(root)).send({ id: 'initech', name: 'Again' }))
          .status,
      ).toBe(409);
      expect(
        (await request(h.app).post('/api/v1/tenants').set(as(root)).send({ id: 'Bad Id', name: 'x' })).status,
      ).toBe(400);
      expect(
        (await request(h.app).patch('/api/v1/tenants/initech').set(as(root)).send({ name: 'Initech Health' }))
          .body.name,
      ).toBe('Initech Health');
      expect(
        (await request(h.app).get('/api/v1/tenants').set(as(root))).body.items.map(
          (x: { id: string }) => x.id,
        ),
      ).toEqual(expect.arrayContaining(['acme', 'initech', 'platform']));
      expect((await request(h.app).delete('/api/v1/tenants/acme').set(as(root))).body.code).toBe(
        'TENANT_HAS_USERS',
      );
      expect((await request(h.app).delete('/api/v1/tenants/initech').set(as(root))).status).toBe(204);
      expect((await request(h.app).get('/api/v1/tenants/initech').set(as(root))).status).toBe(404);
      const actions = (await events('SYSTEM_ACCESS'))
        .filter((e) => e.userId === root.id)
        .map((e) => e.detail.action);
      expect(actions).toEqual(
        expect.arrayContaining(['tenants.create', 'tenants.update', 'tenants.list', 'tenants.delete']),
      );
      const trail = await request(h.app).get('/api/v1/tenants/acme/audit-events').set(as(root));
      expect(trail.status).toBe(200);
      expect(trail.body.items.length).toBeGreaterThan(0);
    });
  });

  describe('config', () => {
    it('merges settings and branding for the tenant admin and shows them to every role of the tenant only', async () => {
      const patched = await request(h.app)
        .patch('/api/v1/config')
        .set(as(admin))
        .send({
          settings: { locale: 'en-GB', triage: { level: 2 } },
          branding: { displayName: 'Acme Care', primaryColor: '#112233' },
        });
      expect(patched.status).toBe(200);
      const again = await request(h.app)
        .patch('/api/v1/config')
        .set(as(admin))
        .send({ settings: { locale: null, theme: 'dark' }, branding: { primaryColor: null } });
      expect(again.body.settings).toEqual({ triage: { level: 2 }, theme: 'dark' });
      expect(again.body.branding).toEqual({ displayName: 'Acme Care' });
      expect((await request(h.app).get('/api/v1/config').set(as(viewer))).body.branding).toEqual({
        displayName: 'Acme Care',
      });
      expect((await request(h.app).get('/api/v1/config').set(as(root))).body).toMatchObject({
        tenantId: 'platform',
        settings: {},
        branding: {},
      });
      expect(
        (
          await request(h.app)
            .patch('/api/v1/config')
            .set(as(admin))
            .send({ branding: { primaryColor: 'red' } })
        ).status,
      ).toBe(400);
      expect(
        (
          await request(h.app)
            .patch('/api/v1/config')
            .set(as(admin))
            .send({ branding: { logoUrl: 'javascript:alert(1)' } })
        ).status,
      ).toBe(400);
    });
  });

  describe('workflow', () => {
    const steps = [
      { id: 'intake', agentId: 'triage', next: ['advice'] },
      { id: 'advice', agentId: 'care-coordinator', title: 'Advise' },
    ];
    it('creates, versions with optimistic locking, lists and deletes workflow definitions', async () => {
      const created = await request(h.app)
        .post('/api/v1/workflow')
        .set(as(user))
        .send({ name: 'Discharge', steps });
      expect(created.status).toBe(201);
      expect(created.body.version).toBe(1);
      const id = created.body.id;
      const v2 = await request(h.app)
        .put(`/api/v1/workflow/${id}`)
        .set(as(user))
        .send({ name: 'Discharge', steps: steps.slice(1), version: 1 });
      expect(v2.body.version).toBe(2);
      const stale = await request(h.app)
        .put(`/api/v1/workflow/${id}`)
        .set(as(user))
        .send({ name: 'Discharge', steps, version: 1 });
      expect(stale.status).toBe(409);
      expect(stale.body.code).toBe('VERSION_CONFLICT');
      expect(
        (await request(h.app).get('/api/v1/workflow').set(as(viewer))).body.items.map(
          (w: { id: string }) => w.id,
        ),
      ).toContain(id);
      expect(
        (await request(h.app).post('/api/v1/workflow').set(as(user)).send({ name: 'Discharge', steps }))
          .status,
      ).toBe(409);
      expect((await request(h.app).delete(`/api/v1/workflow/${id}`).set(as(viewer))).status).toBe(403);
      expect((await request(h.app).delete(`/api/v1/workflow/${id}`).set(as(user))).status).toBe(204);
    });

    it('refuses duplicate step ids and dangling next references', async () => {
      const dup = await request(h.app)
        .post('/api/v1/workflow')
        .set(as(user))
        .send({ name: 'Dup', steps: [steps[1], steps[1]] });
      expect(dup.status).toBe(400);
      const dangling = await request(h.app)
        .post('/api/v1/workflow')
        .set(as(user))
        .send({ name: 'Dangling', steps: [{ id: 'a', agentId: 'x', next: ['nowhere'] }] });
      expect(dangling.body.errors[0].pointer).toBe('/steps/0/next/0');
    });
  });

  describe('kb', () => {
    it('stores documents tenant-scoped and indexes them into the memory service for the tenant', async () => {
      memory.state.status = 201;
      const res = await request(h.app)
        .post('/api/v1/kb/documents')
        .set(as(user))
        .send({ title: 'Asthma plan', content: 'Use the inhaler.', tags: ['asthma'] });
      expect(res.status).toBe(201);
      expect(res.body.indexStatus).toBe('INDEXED');
      const call = memory.calls.find(
        (c) => c.url === '/api/v1/memory/remember/batch' && batchIds(c).includes(`kb:${res.body.id}:0`),
      )!;
      expect(call.headers['x-tenant-id']).toBe('acme');
      expect(call.headers['x-api-key']).toBe('memory-key');
      expect(call.body).toEqual({
        items: [
          {
            id: `kb:${res.body.id}:0`,
            type: 'SEMANTIC',
            source: 'DOCUMENT',
            tags: ['kb', 'asthma', `kbdoc:${res.body.id}`],
            text: 'Asthma plan\n\nUse the inhaler.',
          },
        ],
      });
      const listed = await request(h.app).get('/api/v1/kb/documents?q=inhaler').set(as(viewer));
      expect(listed.body.items.map((d: { id: string }) => d.id)).toEqual([res.body.id]);
      expect(listed.body.items[0].content).toBeUndefined();
      expect((await request(h.app).delete(`/api/v1/kb/documents/${res.body.id}`).set(as(user))).status).toBe(
        204,
      );
      expect(
        memory.calls.some(
          (c) =>
            c.method === 'DELETE' && c.url === `/api/v1/memory/${encodeURIComponent(`kb:${res.body.id}:0`)}`,
        ),
      ).toBe(true);
    });

    it('keeps the document when the memory service refuses it, recording FAILED', async () => {
      memory.state.status = 503;
      const res = await request(h.app)
        .post('/api/v1/kb/documents')
        .set(as(user))
        .send({ title: 'Sleep', content: 'Keep a routine.' });
      expect(res.status).toBe(201);
      expect(res.body.indexStatus).toBe('FAILED');
      expect(
        (await request(h.app).get(`/api/v1/kb/documents/${res.body.id}`).set(as(viewer))).body,
      ).toMatchObject({ content: 'Keep a routine.', indexStatus: 'FAILED' });
    });

    it('retries a write that timed out or got 503 and ends INDEXED, each passage stored once', async () => {
      memory.state.status = 200;
      memory.state.writes = [{ delayMs: 1000 }, { status: 503 }];
      const res = await request(h.app)
        .post('/api/v1/kb/documents')
        .set(as(user))
        .send({ title: 'Insulin', content: 'An opened pen keeps 28 days at room temperature.' });
      expect(res.body.indexStatus).toBe('INDEXED');
      const writes = memory.calls.filter(
        (c) => c.url === '/api/v1/memory/remember/batch' && batchIds(c).includes(`kb:${res.body.id}:0`),
      );
      expect(writes).toHaveLength(3);
      expect(
        (await request(h.app).get(`/api/v1/kb/documents/${res.body.id}`).set(as(viewer))).body.indexStatus,
      ).toBe('INDEXED');
    });

    it('ends every upload of a burst INDEXED or visibly FAILED, never NOT_INDEXED, and removes a FAILED one from memory', async () => {
      memory.state.status = 200;
      // Twelve documents of about twenty passages (two batches each); the second batch of three of them never gets
      // an answer in time, on any of its four attempts.
      const docs = Array.from({ length: 12 }, (_, i) => ({
        title: `Leaflet ${i}`,
        content: Array.from(
          { length: 250 },
          (_, j) => `Sentence ${j} of leaflet ${i} about daily care at home.`,
        ).join(' '),
      }));
      const lost = new Set(['Leaflet 1', 'Leaflet 5', 'Leaflet 9']);
      memory.state.lostWhen = (body) => {
        const items = (body as { items?: Array<{ id: string; text: string }> }).items ?? [];
        return items.some((i) => i.id.endsWith(':16') && lost.has(i.text.split('\n')[0]!));
      };
      const before = memory.calls.length;
      const answers = await Promise.all(
        docs.map((d) => request(h.app).post('/api/v1/kb/documents').set(as(user)).send(d)),
      );
      memory.state.lostWhen = undefined;
      expect(answers.map((a) => a.status)).toEqual(docs.map(() => 201));
      expect(answers.map((a) => a.body.indexStatus)).toEqual(
        docs.map((d) => (lost.has(d.title) ? 'FAILED' : 'INDEXED')),
      );
      for (const a of answers)
        expect(
          (await request(h.app).get(`/api/v1/kb/documents/${a.body.id}`).set(as(viewer))).body.indexStatus,
        ).toBe(a.body.indexStatus);
      const calls = memory.calls.slice(before);
      for (const a of answers.filter((x) => x.body.indexStatus === 'FAILED')) {
        const tried = calls.filter(
          (c) =>
            c.url === '/api/v1/memory/remember/batch' &&
            batchIds(c).some((id) => id.startsWith(`kb:${a.body.id}:`)),
        );
        expect(tried.filter((c) => batchIds(c).includes(`kb:${a.body.id}:16`))).toHaveLength(4);
        // The first batch was stored; a FAILED document must not stay half-recallable.
        for (let i = 0; i < 16; i++)
          expect(
            calls.some(
              (c) =>
                c.method === 'DELETE' &&
                c.url === `/api/v1/memory/${encodeURIComponent(`kb:${a.body.id}:${i}`)}`,
            ),
          ).toBe(true);
      }
    }, 60_000);

    it('falls back to one remember per passage when the memory service has no batch endpoint, a 409 on a retry counting as stored', async () => {
      const old = await startMemoryStub();
      try {
        const app = buildApp(t.db, {
          MEMORY_BASE_URL: old.url,
          KB_INDEX_TIMEOUT_MS: '300',
          KB_INDEX_BACKOFF_MS: '5',
        }).app;
        old.state.status = 200;
        old.state.writes = [{ status: 404 }, { delayMs: 1000 }, { status: 409 }];
        const res = await request(app)
          .post('/api/v1/kb/documents')
          .set(as(user))
          .send({ title: 'Asthma', content: 'Carry the reliever inhaler.' });
        expect(res.body.indexStatus).toBe('INDEXED');
        expect(
          old.calls.filter(
            (c) =>
              c.url === '/api/v1/memory/remember' && (c.body as { id: string }).id === `kb:${res.body.id}:0`,
          ),
        ).toHaveLength(2);
        // The next document goes straight to single remembers.
        const next = await request(app)
          .post('/api/v1/kb/documents')
          .set(as(user))
          .send({ title: 'Asthma 2', content: 'Check the inhaler technique.' });
        expect(next.body.indexStatus).toBe('INDEXED');
        expect(old.calls.filter((c) => c.url === '/api/v1/memory/remember/batch')).toHaveLength(1);
      } finally {
        await old.close();
      }
    });

    it('indexes a long document as titled passages of whole sentences, one memory each, and removes them all', async () => {
      memory.state.status = 201;
      const paragraphs = Array.from(
        { length: 12 },
        (_, i) =>
          `Paragraph ${i} says one thing about insulin storage. It keeps pens cool before use, number ${i}. Opened pens stay out of the fridge.`,
      );
      const res = await request(h.app)
        .post('/api/v1/kb/documents')
        .set(as(user))
        .send({ title: 'Insulin storage', content: paragraphs.join('\n\n') });
      expect(res.body.indexStatus).toBe('INDEXED');
      const chunks = memory.calls
        .filter(
          (c) =>
            c.url === '/api/v1/memory/remember/batch' &&
            batchIds(c).some((id) => id.startsWith(`kb:${res.body.id}:`)),
        )
        .flatMap((c) => (c.body as { items: Array<{ text: string }> }).items.map((i) => i.text));
      expect(chunks.length).toBeGreaterThan(2);
      for (const text of chunks) {
        expect(text.startsWith('Insulin storage\n\n')).toBe(true);
        expect(text.length).toBeLessThanOrEqual('Insulin storage\n\n'.length + 700);
        expect(text).toMatch(/\.$/);
      }
      // Every sentence of the document is in exactly one passage.
      const bodies = chunks.map((t) => t.slice('Insulin storage\n\n'.length)).join(' ');
      expect(bodies).toBe(paragraphs.join(' '));
      await request(h.app).delete(`/api/v1/kb/documents/${res.body.id}`).set(as(user)).expect(204);
      for (let i = 0; i < chunks.length; i++) {
        expect(
          memory.calls.some(
            (c) =>
              c.method === 'DELETE' &&
              c.url === `/api/v1/memory/${encodeURIComponent(`kb:${res.body.id}:${i}`)}`,
          ),
        ).toBe(true);
      }
    });

    it('searches the tenant knowledge base through the memory service, filtered to kb passages', async () => {
      const docId = '0b6f7a52-6a43-4a5e-9d55-2f1e3f3f1c11';
      const otherDoc = '5d2c1e7a-8b9f-4c3d-a1e2-7f6b5a4c3d21';
      memory.state.status = 200;
      memory.state.recall = {
        results: [
          {
            id: `kb:${docId}:0`,
            text: 'Travel tips\n\nPack an opened insulin pen in hand luggage.',
            score: 0.84,
          },
          {
            id: `kb:${otherDoc}:1`,
            text: 'Insulin storage\n\nAn opened pen keeps 28 days at room temperature.',
            score: 0.8,
          },
          {
            id: `kb:${docId}:2`,
            text: 'Travel tips\n\nCarry a letter from your clinic.',
            score: 0.3,
          },
          { id: 'not-a-kb-memory', text: 'something else', score: 0.5 },
        ],
      };
      const before = memory.calls.length;
      const res = await request(h.app)
        .get('/api/v1/kb/search?q=opened%20insulin%20pen&limit=3')
        .set(as(viewer));
      memory.state.recall = undefined;
      expect(res.status).toBe(200);
      // Re-ranked (ADR 0422): the passage whose title matches the question (2 of 5 words: + 0.3 x 0.4) goes first.
      // Each then gains a quarter of its subject's support, the mean of the subject's two best scores (ADR 0435:
      // 0.92 + 0.25 x 0.46; 0.84 + 0.25 x (0.84 + 0.3) / 2), and a document appears once, by its best passage.
      expect(res.body).toEqual({
        query: 'opened insulin pen',
        items: [
          {
            documentId: otherDoc,
            passage: 1,
            title: 'Insulin storage',
            text: 'An opened pen keeps 28 days at room temperature.',
            score: 1.035,
          },
          {
            documentId: docId,
            passage: 0,
            title: 'Travel tips',
            text: 'Pack an opened insulin pen in hand luggage.',
            score: 0.9825,
          },
        ],
      });
      const call = memory.calls.slice(before).find((c) => c.url === '/api/v1/memory/recall')!;
      expect(call.headers['x-tenant-id']).toBe('acme');
      expect(call.body).toEqual({ query: 'opened insulin pen', topK: 20, filter: { tagsAny: ['kb'] } });
    });

    it('answers 400 for a missing or blank query and 503 when the memory service fails, calling nothing else', async () => {
      for (const q of ['', '?q=', '?q=%20%20', '?q=x&limit=0', '?q=x&limit=51', '?q=x&extra=1']) {
        const r = await request(h.app).get(`/api/v1/kb/search${q}`).set(as(viewer));
        expect(r.status).toBe(400);
        expect(r.headers['content-type']).toMatch(/problem\+json/);
      }
      memory.state.status = 503;
      const down = await request(h.app).get('/api/v1/kb/search?q=insulin').set(as(viewer));
      expect(down.status).toBe(503);
      expect(down.body.code).toBe('KB_SEARCH_UNAVAILABLE');
    });
  });
});
