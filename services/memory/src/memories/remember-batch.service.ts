import type { RememberBatchRequest } from '@care/contracts';
import { writableSpace } from '../partitions/partition-space';
import type { MemoryContext } from './memory-context';
import { MemoryExistsError, MemoryStateError } from './memory.errors';
import { memoryState, tierOfType } from './memory.model';
import { findMemory, insertMemory } from './memories.repository';

/** Outcome of one item of a batch. */
export interface BatchItemOutcome {
  id: string;
  outcome: 'created' | 'unchanged';
}

/**
 * Batch remember (ADR 0109): a bulk writer (platform-auth's knowledge-base indexer) stores many passages with one
 * model call and one transaction instead of one of each per passage. All or none: an id already used by a
 * different text fails the whole batch with 409. An id that already holds the same live text is `unchanged`, so a
 * batch retried after a timeout (whose first attempt did commit) succeeds without duplicates.
 */
export class RememberBatchService {
  constructor(private readonly ctx: MemoryContext) {}

  async rememberBatch(tenantId: string, body: RememberBatchRequest): Promise<{ items: BatchItemOutcome[] }> {
    const dimension = await this.ctx.embeddings.dimension();
    const vectors = await this.ctx.embeddings.embed(body.items.map((i) => i.text));
    await this.ctx.indexes.ensure(dimension);
    const now = this.ctx.clock();
    return this.ctx.database.withTenant(tenantId, async (tx) => {
      await writableSpace(tx, tenantId, this.ctx.embeddings, dimension, now);
      const items: BatchItemOutcome[] = [];
      for (const [i, m] of body.items.entries()) {
        const inserted = await insertMemory(tx, {
          tenantId,
          id: m.id,
          tier: tierOfType(m.type),
          type: m.type,
          source: m.source,
          text: m.text,
          tags: m.tags ?? [],
          embedding: vectors[i]!,
          createdAt: now,
          expiresAt: m.type === 'WORKING' ? new Date(now.getTime() + this.ctx.config.SCRATCHPAD_TTL_SECONDS * 1000) : null,
        });
        if (inserted) {
          items.push({ id: m.id, outcome: 'created' });
          continue;
        }
        const existing = await findMemory(tx, tenantId, m.id);
        const state = existing ? memoryState(existing, now) : 'ACTIVE';
        if (existing && state !== 'ACTIVE' && state !== 'SUPPRESSED') throw new MemoryStateError(m.id, state, existing.mergedInto);
        if (!existing || existing.text !== m.text) throw new MemoryExistsError(m.id, 'another memory');
        items.push({ id: m.id, outcome: 'unchanged' });
      }
      return { items };
    });
  }
}
