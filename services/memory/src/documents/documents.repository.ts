import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Tx } from '@care/db';
import { memories } from '../db/schema';
import type { NewMemory } from '../memories/memories.repository';

/**
 * Inserts a document or replaces the text, tags and vector of a live document with the same id. Returns
 * `created`, `updated`, or `blocked` when the id belongs to a non-document or a forgotten memory.
 */
export async function upsertDocument(tx: Tx, m: NewMemory): Promise<'created' | 'updated' | 'blocked'> {
  const rows = await tx
    .insert(memories)
    .values({ ...m, dim: m.embedding.length, strength: m.strength ?? 0.5, updatedAt: m.createdAt })
    .onConflictDoUpdate({
      target: [memories.tenantId, memories.id],
      set: {
        text: m.text,
        tags: m.tags,
        embedding: m.embedding,
        dim: m.embedding.length,
        updatedAt: m.createdAt,
      },
      setWhere: and(
        eq(memories.tier, 'documents'),
        isNull(memories.forgottenAt),
        isNull(memories.mergedInto),
      ),
    })
    // xmax is 0 on a freshly inserted row version and set on one the conflict branch updated.
    .returning({ inserted: sql<boolean>`(xmax = 0)` });
  if (rows.length === 0) return 'blocked';
  return rows[0].inserted ? 'created' : 'updated';
}
