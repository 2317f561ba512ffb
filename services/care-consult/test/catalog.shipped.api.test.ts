import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { parse } from 'yaml';
import { DOMAINS } from '@care/contracts';
import { SHIPPED_WORKSPACE_ROOT } from '../src/config';
import { aUser } from './builders/user.builder';
import { createTestContext, type TestContext } from './support/test-app';

/** Front matter of every manifest, read independently of the service's loader. */
function manifests(kind: 'agents' | 'skills', file: string): Array<Record<string, any>> {
  const dir = path.join(SHIPPED_WORKSPACE_ROOT, kind);
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map(
      (e) =>
        parse(readFileSync(path.join(dir, e.name, file), 'utf8').split(/^---$/m)[1]) as Record<string, any>,
    );
}

describe('catalog on the shipped starter workspace', () => {
  let ctx: TestContext;
  const token = aUser().token();
  const get = (url: string) => request(ctx.app).get(url).set('Authorization', `Bearer ${token}`);
  const active = manifests('agents', 'AGENT.md').filter((m) => m.status === 'active');
  const counted = manifests('skills', 'SKILL.md').filter((m) => m.metadata?.status !== 'template');

  beforeAll(async () => {
    ctx = await createTestContext({ workspaceRoot: SHIPPED_WORKSPACE_ROOT });
  });
  afterAll(() => ctx.close());

  it('loads every shipped package without a single error', () => {
    expect(ctx.deps.catalog.snapshot().problems.filter((p) => p.severity === 'error')).toEqual([]);
  });

  it('ships at least 40 active specialists across all five domains and at least 15 skill packs', async () => {
    expect(active.length).toBeGreaterThanOrEqual(40);
    expect(counted.length).toBeGreaterThanOrEqual(15);
    const tree = (await get('/api/agents/categories').expect(200)).body;
    for (const d of DOMAINS) expect(tree.domains[d].count).toBeGreaterThan(0);
  });

  it('counts exactly the active agents and non-template skills in health, lists and taxonomy', async () => {
    const health = (await request(ctx.app).get('/api/health').expect(200)).body;
    expect(health.workspace).toMatchObject({ agentsCount: active.length, skillsCount: counted.length });
    expect((await get('/api/agents?limit=100').expect(200)).body.total).toBe(active.length);
    expect((await get('/api/skills').expect(200)).body.total).toBe(counted.length);
    const tree = (await get('/api/agents/categories').expect(200)).body;
    expect(tree.total).toBe(active.length);
    for (const d of DOMAINS) {
      expect(tree.domains[d].count).toBe(active.filter((m) => m.domain === d).length);
    }
  });

  it('agrees between taxonomy counts and category-prefix filters for every category and subcategory', async () => {
    const tree = (await get('/api/agents/categories').expect(200)).body;
    const paths: Array<[string, number]> = [];
    const walk = (prefix: string, nodes: Record<string, { count: number; subcategories: any }>) => {
      for (const [name, node] of Object.entries(nodes)) {
        paths.push([`${prefix}.${name}`, node.count]);
        walk(`${prefix}.${name}`, node.subcategories);
      }
    };
    for (const [d, node] of Object.entries<any>(tree.domains)) walk(d, node.categories);
    expect(paths.length).toBeGreaterThan(20);
    for (const [category, count] of paths) {
      expect([
        category,
        (await get(`/api/agents?category=${category}&limit=100`).expect(200)).body.total,
      ]).toEqual([category, count]);
    }
  });

  it.each([
    ['sleep', 'sleep-coach'],
    ['insurance claim denied', 'claims-appeals-helper'],
    ['grief after a loss', 'grief-companion'],
    ['anxiety', 'anxiety-support-guide'],
    ['medicine interactions', 'medication-interaction-checker'],
  ])('ranks the obvious specialist first for %j', async (query, expected) => {
    const res = await get(`/api/agents?query=${encodeURIComponent(query)}`).expect(200);
    expect(res.body.agents[0]?.id).toBe(expected);
  });

  it('finds both diabetes specialists at the top and keeps a domain filter strict', async () => {
    const res = await get('/api/agents?query=diabetes').expect(200);
    expect(
      res.body.agents
        .slice(0, 2)
        .map((a: { id: string }) => a.id)
        .sort(),
    ).toEqual(['diabetes-care-guide', 'diabetes-educator']);
    const therapy = await get('/api/agents?query=stress&domain=therapy&limit=50').expect(200);
    expect(therapy.body.agents.every((a: { domain: string }) => a.domain === 'therapy')).toBe(true);
  });

  it('gives every counted skill at least two reference documents in its listing', async () => {
    for (const m of counted) {
      const res = await get(`/api/skills/${m.name}`).expect(200);
      expect([m.name, res.body.references.length >= 2]).toEqual([m.name, true]);
    }
  });
});
