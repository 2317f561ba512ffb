import request from 'supertest';
import { check, TaxonomyTree } from '@care/contracts';
import { aUser } from './builders/user.builder';
import { createTestContext, type TestContext } from './support/test-app';

const leaf = (count: number) => ({ count, subcategories: {} });

describe('catalog endpoints on the fixture workspace', () => {
  let ctx: TestContext;
  const token = aUser().token();
  const get = (url: string) => request(ctx.app).get(url).set('Authorization', `Bearer ${token}`);
  const ids = (body: { agents: Array<{ id: string }> }) => body.agents.map((a) => a.id);

  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('lists active specialists only, in catalog order, with the total before the limit', async () => {
    const res = await get('/api/agents').expect(200);
    expect(res.body.total).toBe(7);
    expect(res.body.limit).toBe(10);
    // catalog order: by category path, then name
    expect(ids(res.body)).toEqual([
      'symptom-checker',
      'after-hours-nurse',
      'insurance-guide',
      'cbt-coach',
      'sleep-coach',
      'shift-work-sleep',
      'stress-coach',
    ]);
    expect(ids(res.body)).not.toEqual(expect.arrayContaining(['router']));
    expect(ids(res.body)).not.toEqual(expect.arrayContaining(['specialist-template']));
    expect(res.body.agents[0]).not.toHaveProperty('persona');
  });

  it('applies the limit', async () => {
    const res = await get('/api/agents?limit=2').expect(200);
    expect(res.body).toMatchObject({ total: 7, limit: 2 });
    expect(res.body.agents).toHaveLength(2);
  });

  it('filters by domain', async () => {
    const res = await get('/api/agents?domain=wellness').expect(200);
    expect(ids(res.body).sort()).toEqual(['shift-work-sleep', 'sleep-coach', 'stress-coach']);
  });

  it('filters by category prefix segment by segment, including subcategories', async () => {
    expect(ids((await get('/api/agents?category=wellness.sleep').expect(200)).body).sort()).toEqual([
      'shift-work-sleep',
      'sleep-coach',
    ]);
    expect(ids((await get('/api/agents?category=wellness.sleep.shift-work').expect(200)).body)).toEqual([
      'shift-work-sleep',
    ]);
    expect(ids((await get('/api/agents?category=wellness.sle').expect(200)).body)).toEqual([]);
    expect(ids((await get('/api/agents?category=clinical').expect(200)).body).sort()).toEqual([
      'after-hours-nurse',
      'symptom-checker',
    ]);
  });

  it('ranks full-text results: name and tags outweigh a passing mention in a persona', async () => {
    const sleep = await get('/api/agents?query=sleep').expect(200);
    expect(ids(sleep.body)[0]).toBe('sleep-coach');
    expect(ids(sleep.body)).toContain('shift-work-sleep');
    // stress-coach only says "rest better" and is not about sleep at all
    expect(ids(sleep.body)).not.toContain('stress-coach');
    const scores = sleep.body.agents.map((a: { score: number }) => a.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(ids((await get('/api/agents?query=night%20shift').expect(200)).body)[0]).toBe('shift-work-sleep');
    expect(ids((await get('/api/agents?query=deductible%20claims').expect(200)).body)[0]).toBe(
      'insurance-guide',
    );
  });

  it('matches word forms and small typos', async () => {
    expect(ids((await get('/api/agents?query=insurence').expect(200)).body)[0]).toBe('insurance-guide');
    expect(ids((await get('/api/agents?query=thoughts').expect(200)).body)[0]).toBe('cbt-coach');
    expect(ids((await get('/api/agents?query=triag').expect(200)).body)).toEqual(
      expect.arrayContaining(['symptom-checker', 'after-hours-nurse']),
    );
  });

  it('combines the query with domain and category filters', async () => {
    const res = await get('/api/agents?query=night&domain=clinical').expect(200);
    expect(ids(res.body)).toEqual(['after-hours-nurse']);
    const none = await get('/api/agents?query=sleep&category=navigation').expect(200);
    expect(none.body).toMatchObject({ total: 0, agents: [] });
  });

  it.each([
    ['an unknown domain', '/api/agents?domain=astrology'],
    ['a zero limit', '/api/agents?limit=0'],
    ['a limit over 100', '/api/agents?limit=101'],
    ['a non-numeric limit', '/api/agents?limit=ten'],
    ['a malformed category', '/api/agents?category=Wellness/Sleep'],
    ['an unknown parameter', '/api/agents?sort=name'],
  ])('answers 400 problem+json for %s', async (_label, url) => {
    const res = await get(url).expect(400);
    expect(res.headers['content-type']).toMatch(/problem\+json/);
    expect(res.body.errors[0].pointer).toMatch(/^\/query/);
  });

  it('returns the taxonomy tree exactly as the spec shapes it, counting active agents at and below each node', async () => {
    const res = await get('/api/agents/categories').expect(200);
    expect(check(TaxonomyTree, res.body).ok).toBe(true);
    expect(res.body).toEqual({
      total: 7,
      domains: {
        clinical: {
          count: 2,
          categories: { triage: { count: 2, subcategories: { 'after-hours': leaf(1) } } },
        },
        education: { count: 0, categories: {} },
        navigation: { count: 1, categories: { insurance: leaf(1) } },
        therapy: { count: 1, categories: { cbt: leaf(1) } },
        wellness: {
          count: 3,
          categories: { sleep: { count: 2, subcategories: { 'shift-work': leaf(1) } }, stress: leaf(1) },
        },
      },
    });
  });

  it('returns an agent with its manifest, declared skills with their reference listings, and persona', async () => {
    const res = await get('/api/agents/sleep-coach').expect(200);
    expect(res.body).toMatchObject({
      id: 'sleep-coach',
      name: 'Sleep Coach',
      domain: 'wellness',
      category: 'wellness.sleep',
      status: 'active',
      tools: ['read_skill_reference'],
      clinical: false,
      version: '1.0.0',
    });
    expect(res.body.skills).toEqual([
      expect.objectContaining({
        id: 'sleep-hygiene',
        references: [
          expect.objectContaining({
            name: 'routine.md',
            path: 'references/routine.md',
            title: 'Building a sleep routine',
          }),
          expect.objectContaining({ name: 'when-to-see-someone.md' }),
        ],
      }),
    ]);
    expect(res.body.skills[0].references[0]).not.toHaveProperty('content');
    expect(res.body.persona).toMatch(/^You are the Sleep Coach/);
  });

  it('answers 404 problems for unknown agents and skills, including broken ones that were skipped', async () => {
    for (const url of [
      '/api/agents/nobody',
      '/api/agents/bad-domain',
      '/api/skills/nothing',
      '/api/skills/broken-skill',
      '/api/agents/..%2F..%2Fetc',
    ]) {
      const res = await get(url).expect(404);
      expect(res.headers['content-type']).toMatch(/problem\+json/);
    }
    expect((await get('/api/agents/nobody')).body.code).toBe('AGENT_NOT_FOUND');
    expect((await get('/api/skills/nothing')).body.code).toBe('SKILL_NOT_FOUND');
  });

  it('lists skill packages without templates or broken ones', async () => {
    const res = await get('/api/skills').expect(200);
    expect(res.body.total).toBe(2);
    expect(res.body.skills.map((s: { id: string }) => s.id)).toEqual(['sleep-hygiene', 'triage-basics']);
    expect(res.body.skills[0]).toMatchObject({ domain: 'wellness', references: 2, clinical: false });
  });

  it('returns a skill with its manifest, instructions, reference listing and the agents that use it', async () => {
    const res = await get('/api/skills/triage-basics').expect(200);
    expect(res.body).toMatchObject({
      id: 'triage-basics',
      metadata: {
        domain: 'clinical',
        clinical: true,
        tags: ['triage', 'urgency'],
        version: '1.0.0',
        status: 'active',
      },
      references: [
        {
          name: 'red-flags.md',
          path: 'references/red-flags.md',
          title: 'Red flags',
          bytes: expect.any(Number),
        },
      ],
    });
    expect(res.body.instructions).toMatch(/^# Triage basics/);
    expect(res.body.agents.sort()).toEqual(['after-hours-nurse', 'symptom-checker']);
  });
});
