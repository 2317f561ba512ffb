import type { RememberBatchRequest, RememberBatchResult } from '@care/contracts';
import { writableSpace } from '../partitions/partition-space';
import type { MemoryWriteDeps } from './memories.service';
import { MemoryExistsError, MemoryStateError } from './memory.errors';
import { memoryState, tierOfType } from './memory.model';
import { findMemories, insertMemories } from './memories.repository';

/** Outcome of one item of a batch. */
type BatchItemOutcome = RememberBatchResult['items'][number];

/**
 * Batch remember (ADR 0109): a bulk writer (platform-auth's knowledge-base indexer) stores many passages with one
 * model call and one transaction instead of one of each per passage. All or none: an id already used by a
 * different text fails the whole batch with 409. An id that already holds the same live text is `unchanged`, so a
 * batch retried after a timeout (whose first attempt did commit) succeeds without duplicates.
 */
export class RememberBatchService {
  constructor(private readonly deps: MemoryWriteDeps) {}

  async rememberBatch(tenantId: string, body: RememberBatchRequest): Promise<RememberBatchResult> {
    const dimension = await this.deps.embeddings.dimension();
    const vectors = await this.deps.embeddings.embed(body.items.map((i) => i.text));
    await this.deps.indexes.ensure(dimension);
    const now = this.deps.clock();
    const expiresAt = new Date(now.getTime() + this.deps.config.SCRATCHPAD_TTL_SECONDS * 1000);
    return this.deps.database.withTenant(tenantId, async (tx) => {
      await writableSpace(tx, this.deps.embeddings, dimension, now);
      // One statement for all items; an id already taken (before, or earlier in this batch) is left out of it.
      const inserted = await insertMemories(
        tx,
        body.items.map((m, i) => ({
          tenantId,
          id: m.id,
          tier: tierOfType(m.type),
          type: m.type,
          source: m.source,
          text: m.text,
          tags: m.tags ?? [],
          embedding: vectors[i]!,
          createdAt: now,
          expiresAt: m.type === 'WORKING' ? expiresAt : null,
        })),
      );
      const created = new Set(inserted.map((r) => r.id));
      const taken = body.items.filter((m) => !created.has(m.id)).map((m) => m.id);
      // What each taken id holds: a row stored before this batch, or the one this insert stored for an earlier item.
      const held = new Map([...(await findMemories(tx, taken)), ...inserted].map((r) => [r.id, r]));
      return {
        items: body.items.map((m): BatchItemOutcome => {
          // The first item of an id that the insert stored is created; any later one meets it as taken.
          if (created.delete(m.id)) return { id: m.id, outcome: 'created' };
          const row = held.get(m.id);
          const state = row ? memoryState(row, now) : 'ACTIVE';
          if (row && state !== 'ACTIVE' && state !== 'SUPPRESSED')
            throw new MemoryStateError(m.id, state, row.mergedInto);
          if (!row || row.text !== m.text) throw new MemoryExistsError(m.id, 'another memory');
          return { id: m.id, outcome: 'unchanged' };
        }),
      };
    });
  }
}
