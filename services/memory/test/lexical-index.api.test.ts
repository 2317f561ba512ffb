import fc from 'fast-check';
import request from 'supertest';
import { sql } from 'drizzle-orm';
import type { Express } from 'express';
import type { Database } from '@care/db';
import type { AppDeps } from '../src/app';
import { TIERS } from '../src/memories/memory.model';
import { LexicalIndex } from '../src/recall/lexical-index';
import { queryLexemes, TermStats } from '../src/recall/lexical';
import { findCandidates } from '../src/recall/recall.repository';
import { aMemory } from './builders/memory.builder';
import type { TestClock } from '@care/service-kit/testing';
import { buildApp, openTestDatabase } from './support/test-app';

const WORDS = [
  'insulin',
  'walk',
  'sleep',
  'blood',
  'pressure',
  'nurse',
  'knee',
  'garden',
  'pharmacy',
  'tuesday',
];
const sentence = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 5 }).map((w) => w.join(' '));
const OPS = [
  'suppress',
  'unsuppress',
  'forget',
  'reinforce',
  'document',
  'scratchpad',
  'expire',
  'rewrite',
] as const;

let database: Database;
let app: Express;
let deps: AppDeps;
let clock: TestClock;
let seq = 0;

beforeAll(async () => {
  database = await openTestDatabase();
  ({ app, deps, clock } = buildApp(database));
});
afterAll(async () => {
  await deps?.lexicalIndex?.close();
  await database?.close();
});

const send = (method: 'post' | 'delete', path: string, partition: string, body?: object) =>
  request(app)[method](`/api/v1/memory${path}`).set('X-Tenant-Id', partition).send(body);

/** The full-text candidates of both implementations, and the lexical score SQL gives every candidate. */
async function bothSearches(partition: string, query: string) {
  const index = deps.lexicalIndex!;
  await index.ready();
  return database.withTenant(partition, async (tx) => {
    const lexemes = await queryLexemes(tx, query);
    const sqlTerms = await new TermStats().weigh(tx, lexemes);
    const memTerms = await index.weigh(tx, lexemes);
    const common = {
      tenantId: partition,
      dim: 64,
      queryVector: new Array(64).fill(0.125),
      tiers: [...TIERS],
    };
    const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);
    // A pool larger than the partition: no tie is cut at its end, so both sides must return the same set.
    const scope = { ...common, pool: 400, now: clock.now() };
    const rows = await findCandidates(tx, { ...scope, terms: sqlTerms });
    const fromSql = rows
      .filter((r) => r.textRank !== undefined)
      .map((r) => ({ id: r.id, textRank: r.textRank, textScore: r.textScore }))
      .sort(byId);
    const inOrder = index.search(partition, memTerms, scope);
    const fromIndex = [...inOrder].sort(byId);
    // A small pool cuts through ties: the index keeps the first of its (score, then id) order.
    const cut = index.search(partition, memTerms, { ...scope, pool: 2 });
    const scores = rows.map((r) => [r.textScore, index.score(partition, r.id, memTerms)]);
    // The candidate statement of the embedded database, built each time and prepared once per session (by name).
    const inProcess = { text: inOrder, score: (id: string) => index.score(partition, id, memTerms) };
    const built = (await findCandidates(tx, { ...scope, terms: memTerms, inProcess })).sort(byId);
    const prepared = (
      await findCandidates(tx, {
        ...scope,
        terms: memTerms,
        inProcess: { ...inProcess, session: index.session },
      })
    ).sort(byId);
    return { sqlTerms, memTerms, fromSql, fromIndex, scores, cut, inOrder, built, prepared };
  });
}

describe('in-process lexical index (embedded database)', () => {
  it('weighs, finds, ranks and scores full-text candidates exactly as the SQL search, through every lifecycle change', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(sentence, { minLength: 3, maxLength: 8 }),
        fc.array(fc.record({ op: fc.constantFrom(...OPS), i: fc.nat(), text: sentence }), { maxLength: 8 }),
        fc.array(sentence, { minLength: 1, maxLength: 3 }),
        async (texts, ops, queries) => {
          const partition = `lex-${++seq}`;
          const ids = texts.map((_, i) => `m${i}`);
          // The index sees the partition before the writes, so every change below reaches it as a notification.
          await bothSearches(partition, texts[0]);
          for (let i = 0; i < texts.length; i++)
            expect(
              (
                await send(
                  'post',
                  '/remember',
                  partition,
                  aMemory().withId(ids[i]).withText(texts[i]).build(),
                )
              ).status,
            ).toBe(200);
          for (const { op, i, text } of ops) {
            const id = ids[i % ids.length];
            if (op === 'suppress' || op === 'unsuppress')
              await send('post', `/${id}/suppress`, partition, { suppressed: op === 'suppress' });
            else if (op === 'forget') await send('delete', `/${id}`, partition);
            else if (op === 'reinforce')
              await send('post', `/${id}/reinforce`, partition, { outcome: 'POSITIVE' });
            else if (op === 'document')
              await send('post', '/', partition, {
                id: `doc${i % 3}`,
                text,
                vector: new Array(64).fill(0.5),
              });
            else if (op === 'scratchpad')
              await send('post', '/scratchpad', partition, { text, ttlSeconds: 60 });
            else if (op === 'expire') clock.advance(61);
            else {
              // A write outside the service's code paths (and one rolled back) is followed too.
              await database.withTenant(partition, (tx) =>
                tx.execute(
                  sql`update memories set text = ${text} where tenant_id = ${partition} and id = ${id}`,
                ),
              );
              await database
                .withTenant(partition, async (tx) => {
                  await tx.execute(
                    sql`update memories set text = 'pharmacy pharmacy' where tenant_id = ${partition}`,
                  );
                  throw new Error('rolled back');
                })
                .catch(() => undefined);
            }
          }
          for (const query of [...queries, texts[0]]) {
            const r = await bothSearches(partition, query);
            expect(r.memTerms).toEqual(r.sqlTerms);
            expect(r.fromIndex).toEqual(r.fromSql);
            expect(r.cut).toEqual(r.inOrder.slice(0, 2));
            expect(r.prepared).toEqual(r.built);
            for (const [fromSql, fromIndex] of r.scores) expect(fromIndex).toBeCloseTo(fromSql, 12);
          }
        },
      ),
      { numRuns: 15 },
    );
  });

  it('loads every partition at start (warm); a closed index stops listening and loads nothing', async () => {
    for (const partition of ['warm-a', 'warm-b'])
      await send('post', '/remember', partition, aMemory().withText('knee garden').build()).expect(200);
    const fresh = LexicalIndex.forDatabase(database)!;
    const partitions = await database.withSystem((tx) =>
      tx.execute(sql`select count(*)::int as n from partitions`),
    );
    expect(await fresh.warm(database)).toBe((partitions.rows[0] as { n: number }).n);
    await fresh.close();
    expect(fresh.listening).toBe(false);
    expect(await fresh.warm(database)).toBe(0);
  });

  it('reloads a partition after a TRUNCATE and answers nothing for memories that are gone', async () => {
    const partition = `lex-${++seq}`;
    await send('post', '/remember', partition, aMemory().withId('a').withText('garden nurse').build()).expect(
      200,
    );
    expect((await bothSearches(partition, 'garden')).fromIndex.map((c) => c.id)).toEqual(['a']);
    await database.withSystem((tx) => tx.execute(sql`truncate memories`));
    const r = await bothSearches(partition, 'garden');
    expect(r.fromIndex).toEqual([]);
    expect(r.fromSql).toEqual([]);
  });
});
