import fc from 'fast-check';
import request from 'supertest';
import type { Express } from 'express';
import type { Database } from '@care/db';
import type { AppDeps } from '../src/app';
import { aMemory } from './builders/memory.builder';
import { buildApp, openTestDatabase } from './support/test-app';

// Recall's tag filter (ADR 0310): the server narrows both searches to memories carrying one of the tags, so
// other people's memories in the same tenant partition never take the places of the caller's own.

let database: Database;
let app: Express;
let deps: AppDeps;

beforeAll(async () => {
  database = await openTestDatabase();
  ({ app, deps } = buildApp(database));
});
afterAll(async () => {
  await deps?.lexicalIndex?.close();
  await database?.close();
});

const remember = (partition: string, body: object) =>
  request(app).post('/api/v1/memory/remember').set('X-Tenant-Id', partition).send(body).expect(200);
const recall = (partition: string, body: object) =>
  request(app).post('/api/v1/memory/recall').set('X-Tenant-Id', partition).send(body);

describe('recall filtered on the server by tag', () => {
  const partition = 'filter-tenant';
  beforeAll(async () => {
    // Thirty near-identical memories of other users would fill any top K before the owner's one.
    for (let i = 0; i < 30; i++) {
      await remember(
        partition,
        aMemory()
          .withText(`I take metformin 500 mg every morning with breakfast (${i})`)
          .withTags(`user:other-${i}`)
          .build(),
      );
    }
    await remember(
      partition,
      aMemory()
        .withId('mine-1')
        .withText('I take metformin every morning')
        .withTags('chat', 'user:alice')
        .build(),
    );
  });

  it('returns only the caller-tagged memory although thirty better-matching ones of others exist', async () => {
    const unfiltered = await recall(partition, {
      query: 'metformin 500 mg every morning with breakfast',
      topK: 5,
    }).expect(200);
    expect(unfiltered.body.results.map((r: { id: string }) => r.id)).not.toContain('mine-1');
    const mine = await recall(partition, {
      query: 'metformin 500 mg every morning with breakfast',
      topK: 5,
      filter: { tagsAny: ['user:alice'] },
    }).expect(200);
    expect(mine.body.results.map((r: { id: string }) => r.id)).toEqual(['mine-1']);
    expect(mine.body.filter).toEqual({ tagsAny: ['user:alice'] });
  });

  it('applies the filter on the SQL path too (no in-process index)', async () => {
    const index = deps.lexicalIndex;
    const listening = jest.spyOn(index!, 'listening', 'get').mockReturnValue(false);
    try {
      const mine = await recall(partition, {
        query: 'metformin morning',
        topK: 3,
        filter: { tagsAny: ['user:alice'] },
      }).expect(200);
      expect(mine.body.results.map((r: { id: string }) => r.id)).toEqual(['mine-1']);
    } finally {
      listening.mockRestore();
    }
  });

  it('matches any of several tags and nothing for an unknown one', async () => {
    const two = await recall(partition, {
      query: 'metformin',
      topK: 10,
      filter: { tagsAny: ['user:alice', 'user:other-3'] },
    }).expect(200);
    expect(new Set(two.body.results.map((r: { id: string }) => r.id)).size).toBe(2);
    const none = await recall(partition, {
      query: 'metformin',
      topK: 10,
      filter: { tagsAny: ['user:nobody'] },
    }).expect(200);
    expect(none.body.results).toEqual([]);
  });

  it('never returns a memory without one of the requested tags, whatever the query (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('metformin', 'morning breakfast', 'mg', 'take every', 'insulin'),
        fc.integer({ min: 0, max: 29 }),
        async (query, n) => {
          const r = await recall(partition, {
            query,
            topK: 10,
            filter: { tagsAny: [`user:other-${n}`] },
          }).expect(200);
          for (const hit of r.body.results as Array<{ tags: string[] }>)
            expect(hit.tags).toContain(`user:other-${n}`);
        },
      ),
      { numRuns: 15 },
    );
  });

  it('answers 400 for a malformed filter and changes nothing', async () => {
    for (const filter of [
      {},
      { tagsAny: [] },
      { tagsAny: [''] },
      { tagsAny: 'user:alice' },
      { owner: 'alice' },
    ]) {
      const r = await recall(partition, { query: 'metformin', filter });
      expect(r.status).toBe(400);
      expect(r.headers['content-type']).toMatch(/problem\+json/);
    }
  });
});
