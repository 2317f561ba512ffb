import request from 'supertest';
import { sql } from 'drizzle-orm';
import type { Database } from '@care/db';
import { testEngines } from '@care/service-kit/testing';
import { sanitizeMeta } from '../src/audit/audit.service';
import { aUser } from './builders/user.builder';
import { openConsultDatabase } from './support/engines';
import { createTestContext, type TestContext } from './support/test-app';

for (const engine of testEngines()) {
  describe(`GET /api/audit on ${engine.name}`, () => {
    let db: { database: Database; close(): Promise<void> };
    let ctx: TestContext;
    let frozen: TestContext;
    const admin = aUser().inTenant('acme').withId('admin-1').withRole('TENANT_ADMIN');
    const ann = aUser().inTenant('acme').withId('ann');
    const ben = aUser().inTenant('acme').withId('ben');
    const otherAdmin = aUser().inTenant('globex').withId('admin-2').withRole('TENANT_ADMIN');
    const get = (user: typeof ann, url: string, app = ctx.app) =>
      request(app).get(url).set('Authorization', `Bearer ${user.token()}`);

    beforeAll(async () => {
      db = await engine.open(openConsultDatabase);
      ctx = await createTestContext({ database: db.database });
      const at = new Date('2030-01-01T00:00:00.000Z');
      frozen = await createTestContext({ database: db.database, overrides: { clock: () => at } });
      await get(ann, '/api/agents/sleep-coach').expect(200);
      await get(ben, '/api/agents?query=sleep').expect(200);
      await get(ben, '/api/skills/sleep-hygiene').expect(200);
    });
    afterAll(async () => {
      await ctx?.close();
      await frozen?.close();
      await db?.close();
    });

    it('records catalog reads with actor, action, resource id, time and outcome', async () => {
      const res = await get(ann, '/api/audit').expect(200);
      const read = res.body.items.find((e: { action: string }) => e.action === 'catalog.agent.read');
      expect(read).toMatchObject({
        actorId: 'ann',
        resourceType: 'agent',
        resourceId: 'sleep-coach',
        outcome: 'success',
      });
      expect(new Date(read.occurredAt).toISOString()).toBe(read.occurredAt);
      expect(read.requestId).toEqual(expect.any(String));
    });

    it('shows a regular user only their own events, and refuses asking for someone else', async () => {
      const res = await get(ann, '/api/audit').expect(200);
      expect(res.body.items.length).toBeGreaterThan(0);
      expect(res.body.items.every((e: { actorId: string }) => e.actorId === 'ann')).toBe(true);
      const denied = await get(ann, '/api/audit?actorId=ben').expect(403);
      expect(denied.body.code).toBe('AUDIT_FORBIDDEN');
    });

    it('shows a tenant admin the whole tenant and nothing of other tenants', async () => {
      const acme = await get(admin, '/api/audit?limit=200').expect(200);
      const actors = new Set(acme.body.items.map((e: { actorId: string }) => e.actorId));
      expect(actors).toEqual(new Set(['ann', 'ben']));
      const globex = await get(otherAdmin, '/api/audit').expect(200);
      expect(globex.body.items).toEqual([]);
    });

    it('filters by action (exact or prefix), resource and outcome', async () => {
      const exact = await get(admin, '/api/audit?action=catalog.skill.read').expect(200);
      expect(exact.body.items.map((e: { resourceId: string }) => e.resourceId)).toEqual(['sleep-hygiene']);
      const prefix = await get(admin, '/api/audit?action=catalog.*&actorId=ben').expect(200);
      expect(prefix.body.items.map((e: { action: string }) => e.action).sort()).toEqual([
        'catalog.agents.list',
        'catalog.skill.read',
      ]);
      const byResource = await get(admin, '/api/audit?resourceType=agent&resourceId=sleep-coach').expect(200);
      expect(byResource.body.items).toHaveLength(1);
      const failures = await get(admin, '/api/audit?outcome=failure').expect(200);
      expect(failures.body.items).toEqual([]);
    });

    it('pages newest first with a cursor, without gaps or repeats, even when events share a timestamp', async () => {
      const writes = [];
      for (let i = 0; i < 7; i++) {
        writes.push(
          frozen.deps.audit.record({
            tenantId: 'paging',
            actorId: 'p',
            action: 'test.page',
            resourceType: 'thing',
            resourceId: `r${i}`,
            outcome: 'success',
          }),
        );
      }
      await Promise.all(writes);
      const pager = aUser().inTenant('paging').withId('p');
      const seen: string[] = [];
      let url = '/api/audit?limit=3';
      const sizes: number[] = [];
      for (;;) {
        const res = await get(pager, url, frozen.app).expect(200);
        sizes.push(res.body.items.length);
        seen.push(...res.body.items.map((e: { id: string }) => e.id));
        if (!res.body.nextCursor) break;
        url = `/api/audit?limit=3&cursor=${encodeURIComponent(res.body.nextCursor)}`;
      }
      expect(sizes).toEqual([3, 3, 1]);
      expect(new Set(seen).size).toBe(7);
      expect([...seen].sort().reverse()).toEqual(seen); // same time: ordered by id, descending
    });

    it('filters by a time window', async () => {
      const pager = aUser().inTenant('paging').withId('p');
      const inside = await get(
        pager,
        '/api/audit?from=2029-12-31T00:00:00Z&to=2030-01-02T00:00:00Z',
        frozen.app,
      ).expect(200);
      expect(inside.body.items.length).toBe(7);
      const before = await get(pager, '/api/audit?to=2029-12-31T00:00:00Z', frozen.app).expect(200);
      expect(before.body.items).toEqual([]);
    });

    it.each([
      ['a forged cursor', '/api/audit?cursor=bm90LWEtY3Vyc29y'],
      ['a limit over 200', '/api/audit?limit=500'],
      ['an unknown parameter', '/api/audit?body=1'],
      ['a bad date', '/api/audit?from=yesterday'],
      ['an unknown outcome', '/api/audit?outcome=maybe'],
    ])('answers 400 for %s', async (_label, url) => {
      const res = await get(admin, url).expect(400);
      expect(res.headers['content-type']).toMatch(/problem\+json/);
    });

    it('keeps the trail append-only for the runtime role', async () => {
      await ctx.deps.audit.flush();
      const failure = (q: ReturnType<typeof sql>) =>
        db.database
          .withTenant('acme', (tx) => tx.execute(q))
          .then(
            () => 'succeeded',
            (err: Error & { cause?: Error }) => String(err.cause?.message ?? err.message),
          );
      expect(await failure(sql`update audit_events set outcome = 'denied'`)).toMatch(/permission denied/);
      expect(await failure(sql`delete from audit_events`)).toMatch(/permission denied/);
    });
  });
}

describe('audit metadata', () => {
  it('drops keys that could carry bodies or secrets and keeps short scalars only', () => {
    const meta = sanitizeMeta({
      content: 'I have chest pain',
      messageText: 'x',
      password: 'p',
      authorizationCode: 'c',
      results: 3,
      mediaType: 'application/pdf',
      nested: { a: 1 } as unknown as string,
      long: 'y'.repeat(500),
      nan: Number.NaN,
    });
    expect(meta).toEqual({ results: 3, mediaType: 'application/pdf', long: 'y'.repeat(200), nan: null });
  });
});
