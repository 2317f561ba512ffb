import fc from 'fast-check';
import request from 'supertest';
import type { Express } from 'express';
import type { Database } from '@care/db';
import { aMemory } from './builders/memory.builder';
import { buildApp, openTestDatabase } from './support/test-app';

const WORDS = [
  'insulin',
  'walk',
  'sleep',
  'blood',
  'pressure',
  'daughter',
  'appointment',
  'cardiology',
  'breakfast',
  'anxiety',
  'garden',
  'pharmacy',
  'nurse',
  'knee',
  'swimming',
  'tuesday',
];
const sentence = fc.array(fc.constantFrom(...WORDS), { minLength: 3, maxLength: 6 }).map((w) => w.join(' '));

let database: Database;
let app: Express;
let partitionSeq = 0;
const freshPartition = () => `p${++partitionSeq}-${Date.now().toString(36)}`;

beforeAll(async () => {
  database = await openTestDatabase();
  app = buildApp(database).app;
});
afterAll(async () => {
  await database?.close();
});

async function remember(partition: string, body: object): Promise<void> {
  const res = await request(app).post('/api/v1/memory/remember').set('X-Tenant-Id', partition).send(body);
  expect(res.status).toBe(200);
}
async function recallIds(partition: string, query: string, topK = 100): Promise<string[]> {
  const res = await request(app)
    .post('/api/v1/memory/recall')
    .set('X-Tenant-Id', partition)
    .send({ query, topK });
  expect(res.status).toBe(200);
  return res.body.results.map((r: { id: string }) => r.id);
}
async function whyNot(
  partition: string,
  memoryId: string,
  query: string,
): Promise<{ reason: string; explanation: string }> {
  const res = await request(app)
    .post('/api/v1/memory/why-not')
    .set('X-Tenant-Id', partition)
    .send({ memoryId, query, topK: 100 });
  expect(res.status).toBe(200);
  return res.body;
}

describe('memory lifecycle in recall', () => {
  it('never recalls a suppressed, forgotten or other-partition memory; unsuppress brings it back; why-not names each reason', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(sentence, { minLength: 3, maxLength: 6 }), fc.nat(), async (texts, pick) => {
        const home = freshPartition();
        const elsewhere = freshPartition();
        const ids = texts.map((_, i) => `mem-${i}`);
        for (let i = 0; i < texts.length; i++)
          await remember(home, aMemory().withId(ids[i]).withText(texts[i]).build());
        const suppressed = ids[pick % ids.length];
        const forgotten = ids[(pick + 1) % ids.length];
        const foreign = 'foreign-1';
        await remember(elsewhere, aMemory().withId(foreign).withText(texts[0]).build());
        expect(
          (
            await request(app)
              .post(`/api/v1/memory/${suppressed}/suppress`)
              .set('X-Tenant-Id', home)
              .send({ suppressed: true })
          ).status,
        ).toBe(200);
        expect(
          (await request(app).delete(`/api/v1/memory/${forgotten}`).set('X-Tenant-Id', home)).status,
        ).toBe(200);

        for (const query of [texts[pick % texts.length], texts[(pick + 1) % texts.length], texts[0]]) {
          const got = await recallIds(home, query);
          expect(got).not.toContain(suppressed);
          expect(got).not.toContain(forgotten);
          expect(got).not.toContain(foreign);
        }
        expect((await whyNot(home, suppressed, texts[pick % texts.length])).reason).toBe('SUPPRESSED');
        expect((await whyNot(home, forgotten, texts[0])).reason).toBe('FORGOTTEN');
        const other = await whyNot(home, foreign, texts[0]);
        expect(other.reason).toBe('NOT_IN_PARTITION');
        expect(other.explanation).toContain(home);

        await request(app)
          .post(`/api/v1/memory/${suppressed}/suppress`)
          .set('X-Tenant-Id', home)
          .send({ suppressed: false })
          .expect(200);
        expect(await recallIds(home, texts[pick % texts.length])).toContain(suppressed);
        expect((await whyNot(home, suppressed, texts[pick % texts.length])).reason).toBe('RECALLED');
      }),
      { numRuns: 12 },
    );
  });

  it('raises the rank of a positively reinforced memory above its identical twins', async () => {
    await fc.assert(
      fc.asyncProperty(
        sentence,
        fc.array(sentence, { maxLength: 4 }),
        fc.integer({ min: 2, max: 4 }),
        fc.nat(),
        fc.double({ min: 0.2, max: 10, noNaN: true }),
        async (text, others, twins, pick, weight) => {
          const p = freshPartition();
          const twinIds = Array.from({ length: twins }, (_, i) => `twin-${i}`);
          for (const id of twinIds) await remember(p, aMemory().withId(id).withText(text).build());
          for (let i = 0; i < others.length; i++)
            await remember(p, aMemory().withId(`other-${i}`).withText(others[i]).build());
          // Identical twins tie; the tie goes to the smaller id, so the last twin starts behind the others.
          const target = twinIds[twins - 1 - (pick % (twins - 1))];
          const before = await recallIds(p, text);
          const res = await request(app)
            .post(`/api/v1/memory/${target}/reinforce`)
            .set('X-Tenant-Id', p)
            .send({ outcome: 'POSITIVE', weight });
          expect(res.status).toBe(200);
          expect(res.body.strength).toBeGreaterThan(res.body.previousStrength);
          const after = await recallIds(p, text);
          expect(after.indexOf(target)).toBeLessThan(before.indexOf(target));
          expect(after.filter((id) => twinIds.includes(id))[0]).toBe(target);
        },
      ),
      { numRuns: 10 },
    );
  });

  it('lowers a negatively reinforced memory below its identical twin', async () => {
    const p = freshPartition();
    await remember(p, aMemory().withId('a').withText('blood pressure appointment tuesday').build());
    await remember(p, aMemory().withId('b').withText('blood pressure appointment tuesday').build());
    expect(await recallIds(p, 'blood pressure appointment tuesday')).toEqual(['a', 'b']);
    await request(app)
      .post('/api/v1/memory/a/reinforce')
      .set('X-Tenant-Id', p)
      .send({ outcome: 'NEGATIVE' })
      .expect(200);
    expect(await recallIds(p, 'blood pressure appointment tuesday')).toEqual(['b', 'a']);
  });
});

describe('operations on unknown and forgotten memories', () => {
  it('answers 404 for an unknown id and 409 MEMORY_FORGOTTEN for every change to a forgotten one, which stays readable', async () => {
    const p = freshPartition();
    for (const [method, path, body] of [
      ['delete', '/api/v1/memory/nope', undefined],
      ['post', '/api/v1/memory/nope/reinforce', { outcome: 'POSITIVE' }],
      ['post', '/api/v1/memory/nope/suppress', { suppressed: true }],
      ['post', '/api/v1/memory/nope/resolve', undefined],
      ['get', '/api/v1/memory/nope', undefined],
    ] as const) {
      const res = await request(app)[method](path).set('X-Tenant-Id', p).send(body);
      expect([path, res.status, res.body.code]).toEqual([path, 404, 'MEMORY_NOT_FOUND']);
    }
    await remember(p, aMemory().withId('gone').withText('garden knee swimming').build());
    await request(app).delete('/api/v1/memory/gone').set('X-Tenant-Id', p).expect(200);
    for (const [method, path, body] of [
      ['delete', '/api/v1/memory/gone', undefined],
      ['post', '/api/v1/memory/gone/reinforce', { outcome: 'POSITIVE' }],
      ['post', '/api/v1/memory/gone/suppress', { suppressed: false }],
      ['post', '/api/v1/memory/gone/resolve', undefined],
      ['post', '/api/v1/memory/remember', aMemory().withId('gone').build()],
    ] as const) {
      const res = await request(app)[method](path).set('X-Tenant-Id', p).send(body);
      expect([path, res.status, res.body.code]).toEqual([path, 409, 'MEMORY_FORGOTTEN']);
      expect(res.headers['content-type']).toContain('application/problem+json');
    }
    const audit = await request(app).get('/api/v1/memory/gone').set('X-Tenant-Id', p).expect(200);
    expect(audit.body).toMatchObject({
      id: 'gone',
      state: 'FORGOTTEN',
      forgotten: true,
      text: 'garden knee swimming',
    });
  });

  it('refuses a second memory with a live id (409 MEMORY_EXISTS) and marks resolve idempotently', async () => {
    const p = freshPartition();
    await remember(p, aMemory().withId('dup').build());
    const again = await request(app)
      .post('/api/v1/memory/remember')
      .set('X-Tenant-Id', p)
      .send(aMemory().withId('dup').build());
    expect([again.status, again.body.code]).toEqual([409, 'MEMORY_EXISTS']);
    const first = await request(app).post('/api/v1/memory/dup/resolve').set('X-Tenant-Id', p).expect(200);
    const second = await request(app)
      .post('/api/v1/memory/dup/resolve')
      .set('X-Tenant-Id', p)
      .send({})
      .expect(200);
    expect(first.body.resolved).toBe(true);
    expect(second.body.resolvedAt).toBe(first.body.resolvedAt);
  });

  it('rejects bad bodies with 400 problems and writes nothing', async () => {
    const p = freshPartition();
    const cases: Array<[string, object]> = [
      ['/api/v1/memory/remember', { text: 'x', type: 'DREAM', source: 'USER_STATED' }],
      ['/api/v1/memory/remember', { text: 'x', type: 'EPISODIC', source: 'USER_STATED', mood: 'happy' }],
      ['/api/v1/memory/recall', { query: '', topK: 5 }],
      ['/api/v1/memory/recall', { query: 'x', topK: 0 }],
      ['/api/v1/memory/scratchpad', { text: 'x', ttlSeconds: 0 }],
    ];
    for (const [path, body] of cases) {
      const res = await request(app).post(path).set('X-Tenant-Id', p).send(body);
      expect([path, res.status, res.body.code]).toEqual([path, 400, 'VALIDATION_FAILED']);
      expect(res.body.errors.length).toBeGreaterThan(0);
    }
    const status = await request(app).get('/api/v1/memory/status').set('X-Tenant-Id', p).expect(200);
    expect(status.body.totals.memories).toBe(0);
    const bad = await request(app).get('/api/v1/memory/status').set('X-Tenant-Id', 'bad tenant!');
    expect([bad.status, bad.body.code]).toEqual([400, 'INVALID_TENANT']);
  });
});
