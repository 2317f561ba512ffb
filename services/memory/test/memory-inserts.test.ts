import type { Database } from '@care/db';
import { buildApp, openTestDatabase } from './support/test-app';
import { MemoryExistsError } from '../src/memories/memory.errors';
import { MemoriesService } from '../src/memories/memories.service';

describe('MemoriesService.remember: concurrent writes of one partition share a transaction', () => {
  let database: Database;
  let deps: ConstructorParameters<typeof MemoriesService>[0];
  let transactions: number;

  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });
  beforeEach(() => {
    transactions = 0;
    const counted: Database = {
      ...database,
      withTenant: (tenantId, fn) => {
        transactions++;
        return database.withTenant(tenantId, fn);
      },
    };
    deps = { ...buildApp(database).deps, database: counted };
  });

  const note = (id: string, text: string) => ({
    id,
    text,
    type: 'EPISODIC' as const,
    source: 'USER_STATED' as const,
    tags: [id],
  });

  it('stores each memory once, in one transaction, and answers each request with its own memory', async () => {
    const service = new MemoriesService(deps);
    const ids = ['a1', 'a2', 'a3', 'a4', 'a5'];
    const views = await Promise.all(ids.map((id) => service.remember('p-batch', note(id, `note ${id}`))));
    expect(transactions).toBe(1);
    views.forEach((v, i) => expect(v).toMatchObject({ id: ids[i], text: `note ${ids[i]}`, tags: [ids[i]] }));
    for (const id of ids)
      await expect(service.get('p-batch', id)).resolves.toMatchObject({ id, text: `note ${id}` });
  });

  it('answers 409 only to the request whose id is taken, also when two requests of one batch share an id', async () => {
    const service = new MemoriesService(deps);
    await service.remember('p-taken', note('old', 'already here'));
    const settled = await Promise.allSettled([
      service.remember('p-taken', note('new1', 'first new')),
      service.remember('p-taken', note('old', 'clashes with a stored memory')),
      service.remember('p-taken', note('twin', 'the first twin')),
      service.remember('p-taken', note('twin', 'the second twin')),
    ]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected']);
    expect(settled[1]).toMatchObject({ reason: expect.any(MemoryExistsError) });
    expect(settled[3]).toMatchObject({ reason: expect.any(MemoryExistsError) });
    await expect(service.get('p-taken', 'old')).resolves.toMatchObject({ text: 'already here' });
    await expect(service.get('p-taken', 'twin')).resolves.toMatchObject({ text: 'the first twin' });
  });

  it('fails only the memory the database refuses; the others of its batch are stored', async () => {
    const service = new MemoriesService(deps);
    const settled = await Promise.allSettled([
      service.remember('p-bad', note('good1', 'fine')),
      service.remember('p-bad', note('bad', 'a NUL \u0000 PostgreSQL text cannot hold')),
      service.remember('p-bad', note('good2', 'also fine')),
    ]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    await expect(service.get('p-bad', 'good1')).resolves.toMatchObject({ text: 'fine' });
    await expect(service.get('p-bad', 'good2')).resolves.toMatchObject({ text: 'also fine' });
    await expect(service.get('p-bad', 'bad')).rejects.toThrow();
  });

  it('keeps partitions apart: one transaction per partition, each memory in its own', async () => {
    const service = new MemoriesService(deps);
    await Promise.all([
      service.remember('p-x', note('x1', 'in x')),
      service.remember('p-y', note('y1', 'in y')),
      service.remember('p-x', note('x2', 'in x too')),
    ]);
    expect(transactions).toBe(2);
    await expect(service.get('p-y', 'x1')).rejects.toThrow();
    await expect(service.get('p-x', 'x2')).resolves.toMatchObject({ text: 'in x too' });
  });
});
