import fc from 'fast-check';
import request from 'supertest';
import { testEngines } from '@care/service-kit/testing';
import { openConsultDatabase } from '../support/engines';
import { aUser } from '../builders/user.builder';
import type { TestContext } from '../support/test-app';
import { chat, createChatContext } from '../chat/support/chat-app';
import { ScriptedProvider, says } from '../chat/support/scripted-provider';
import { names } from '../chat/support/sse';

const ask = (content: string, extra: Record<string, unknown> = {}) => ({
  messages: [{ role: 'user', content }],
  ...extra,
});

describe.each(testEngines().map((e) => [e.name, e] as const))(
  'GET /api/chat/threads on %s',
  (_name, engine) => {
    let ctx: TestContext;
    let closeDb: () => Promise<void>;
    // A clock that moves one second per reading, so every turn ends at a distinct time.
    let tick = Date.parse('2026-03-01T08:00:00Z');
    const clock = () => new Date((tick += 1000));
    const provider = new ScriptedProvider(() => ({ events: says('A short answer.') }));
    const alice = aUser().withId('u-alice').inTenant('tenant-1');
    const bob = aUser().withId('u-bob').inTenant('tenant-1');
    const aliceElsewhere = aUser().withId('u-alice').inTenant('tenant-2');

    beforeAll(async () => {
      const opened = await engine.open(openConsultDatabase);
      closeDb = opened.close;
      ctx = await createChatContext({
        database: opened.database,
        overrides: { chatProvider: provider, clock },
      });
    });
    afterAll(async () => {
      await ctx.close();
      await closeDb();
    });

    const list = (user: typeof alice, query = '') =>
      request(ctx.app).get(`/api/chat/threads${query}`).set('Authorization', `Bearer ${user.token()}`);
    const turn = async (user: typeof alice, content: string, threadId: string) => {
      const { frames } = await chat(
        ctx.app,
        user.token(),
        ask(content, { agent_id: 'sleep-coach', thread_id: threadId }),
      );
      expect(names(frames).at(-1)).toBe('done');
    };

    it("lists only the caller's own threads in the caller's tenant, most recently active first, titled by the first question", async () => {
      await turn(alice, 'First question   about\nsleep', 'a-1');
      await turn(alice, 'Second thread question', 'a-2');
      await turn(bob, 'Bob asks about sleep', 'b-1');
      await turn(aliceElsewhere, 'Same user id, other tenant', 'x-1');
      await turn(alice, 'A follow-up in the first thread', 'a-1'); // a-1 becomes the most recent

      const res = await list(alice);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body.next_cursor).toBeNull();
      expect(res.body.threads.map((t: any) => t.thread_id)).toEqual(['a-1', 'a-2']);
      expect(res.body.threads[0]).toMatchObject({
        title: 'First question about sleep',
        agent_id: 'sleep-coach',
        turns: 2,
        busy: false,
      });
      expect(Date.parse(res.body.threads[0].updated_at)).toBeGreaterThan(
        Date.parse(res.body.threads[1].updated_at),
      );
      expect((await list(bob)).body.threads.map((t: any) => t.thread_id)).toEqual(['b-1']);
      expect((await list(aliceElsewhere)).body.threads.map((t: any) => t.thread_id)).toEqual(['x-1']);
    });

    it('cuts a long title and pages with the returned cursor without repeating or skipping a thread', async () => {
      const carol = aUser().withId('u-carol').inTenant('tenant-1');
      await turn(carol, 'word '.repeat(60), 'c-0');
      for (let i = 1; i <= 4; i++) await turn(carol, `Question ${i}`, `c-${i}`);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res = await list(carol, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
        expect(res.status).toBe(200);
        expect(res.body.threads.length).toBeLessThanOrEqual(2);
        seen.push(...res.body.threads.map((t: any) => t.thread_id));
        cursor = res.body.next_cursor;
      } while (cursor);
      expect(seen).toEqual(['c-4', 'c-3', 'c-2', 'c-1', 'c-0']);
      const long = (await list(carol, '?limit=100')).body.threads.at(-1);
      expect(long.title.length).toBe(80);
      expect(long.title.endsWith('\u2026')).toBe(true);
    });

    it('answers an empty list to a user without threads', async () => {
      const res = await list(aUser().inTenant('tenant-1'));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ threads: [], next_cursor: null });
    });

    it('refuses a bad limit, an unknown parameter and a forged cursor with problem+json, and needs a token', async () => {
      for (const q of [
        '?limit=0',
        '?limit=101',
        '?limit=abc',
        '?page=2',
        '?cursor=not-a-cursor',
        `?cursor=${Buffer.from('yesterday|a-1').toString('base64url')}`,
      ]) {
        const res = await list(alice, q);
        expect([q, res.status]).toEqual([q, 400]);
        expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      }
      expect((await request(ctx.app).get('/api/chat/threads')).status).toBe(401);
    });

    it('never fails with a server error on an arbitrary cursor', async () => {
      await fc.assert(
        fc.asyncProperty(fc.string({ minLength: 1, maxLength: 60 }), async (cursor) => {
          const res = await list(alice, `?cursor=${encodeURIComponent(cursor)}`);
          expect([200, 400]).toContain(res.status);
        }),
        { numRuns: 40 },
      );
    });
  },
);
