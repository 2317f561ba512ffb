import type { Database } from '@care/db';
import type { EmbeddingProvider } from '../embeddings/embedding-provider';
import type { MemoryRow } from './memory.model';
import { insertMemories, type NewMemory } from './memories.repository';
import { writableSpace } from '../partitions/partition-space';

/** One remember waiting for its row: its own memory and its own outcome. */
interface Waiting {
  memory: NewMemory;
  now: Date;
  resolve: (row: MemoryRow | undefined) => void;
  reject: (err: unknown) => void;
}

/**
 * Writes the new memories of concurrent remembers of one partition together: one transaction, one partition
 * check and one multi-row insert instead of five round trips each (ADR 0316). Calls made in the same turn of the
 * event loop (typically the requests whose embeddings came out of one encoder run) share a write. Each call gets
 * only its own row, undefined when its id was taken; if the shared write fails, every call is written again on
 * its own, so one bad memory fails only its own request.
 */
export class MemoryInserts {
  private readonly waiting = new Map<string, Waiting[]>();

  constructor(private readonly deps: { database: Database; embeddings: EmbeddingProvider }) {}

  /** Inserts `memory` into its partition (created in `dimension` on first write); undefined when the id is taken. */
  insert(memory: NewMemory, dimension: number, now: Date): Promise<MemoryRow | undefined> {
    return new Promise((resolve, reject) => {
      const tenant = memory.tenantId;
      let list = this.waiting.get(tenant);
      if (!list) {
        list = [];
        this.waiting.set(tenant, list);
        setImmediate(() => void this.flush(tenant, dimension));
      }
      list.push({ memory, now, resolve, reject });
    });
  }

  private async flush(tenantId: string, dimension: number): Promise<void> {
    const batch = this.waiting.get(tenantId) ?? [];
    this.waiting.delete(tenantId);
    try {
      const rows = await this.write(tenantId, dimension, batch);
      // Two calls with one id: the first in the statement's order got it, the other finds it taken.
      const byId = new Map(rows.map((r) => [r.id, r]));
      for (const w of batch) {
        w.resolve(byId.get(w.memory.id));
        byId.delete(w.memory.id);
      }
    } catch (err) {
      if (batch.length === 1) return batch[0]!.reject(err);
      for (const w of batch)
        await this.write(tenantId, dimension, [w]).then((rows) => w.resolve(rows[0]), w.reject);
    }
  }

  private write(tenantId: string, dimension: number, batch: Waiting[]): Promise<MemoryRow[]> {
    return this.deps.database.withTenant(tenantId, async (tx) => {
      await writableSpace(tx, this.deps.embeddings, dimension, batch[0]!.now);
      return insertMemories(
        tx,
        batch.map((w) => w.memory),
      );
    });
  }
}
