// Storage of the vectors (migration 0004, ADR 0307): recall reads the vector of every candidate, so vectors are
// kept in the row rather than in the TOAST table, and so are the small columns beside them.
import request from 'supertest';
import { sql } from 'drizzle-orm';
import type { Express } from 'express';
import type { Database } from '@care/db';
import { HashingEmbeddingProvider } from '../src/embeddings/hashing.provider';
import { aMemory } from './builders/memory.builder';
import { buildApp, openTestDatabase } from './support/test-app';

let database: Database;
let app: Express;

beforeAll(async () => {
  database = await openTestDatabase();
  ({ app } = buildApp(database, { embeddings: new HashingEmbeddingProvider(512) }));
});
afterAll(async () => {
  await database?.close();
});

/** Which of a memory's columns are stored out of line (in the TOAST table), and whether its vector is compressed. */
async function outOfLine(id: string) {
  const r = await database.withSystem((tx) =>
    tx.execute<{ embedding: boolean; text: boolean; tsv: boolean; compressed: boolean }>(sql`
      select pg_column_toast_chunk_id(embedding) is not null as embedding,
             pg_column_toast_chunk_id(text) is not null as text,
             pg_column_toast_chunk_id(tsv) is not null as tsv,
             pg_column_compression(embedding) is not null as compressed
      from memories where id = ${id}`),
  );
  return r.rows[0];
}

describe('vector storage', () => {
  it('keeps a 512-d vector (uncompressed), the text and the tsvector of a memory in its row', async () => {
    const memory = aMemory().withId('inline-512').withText('Blood pressure is checked every Tuesday').build();
    await request(app).post('/api/v1/memory/remember').set('X-Tenant-Id', 'storage').send(memory).expect(200);
    expect(await outOfLine('inline-512')).toEqual({
      embedding: false,
      text: false,
      tsv: false,
      compressed: false,
    });
  });

  it('still stores a vector too large for a page, out of line', async () => {
    // 12 KB of incompressible values: compression cannot make the row fit a page.
    const big = `[${Array.from({ length: 3000 }, (_, i) => Math.sin(i * 12.9898).toFixed(6)).join(',')}]`;
    await database.withSystem((tx) =>
      tx.execute(sql`
        insert into memories (tenant_id, id, tier, type, source, text, dim, embedding)
        values ('storage-big', 'wide', 'documents', 'DOCUMENT', 'SYSTEM', 'a wide vector', 3000, ${big}::vector)`),
    );
    expect((await outOfLine('wide')).embedding).toBe(true);
  });
});
