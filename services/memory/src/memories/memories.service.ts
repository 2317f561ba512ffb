import { randomUUID } from 'node:crypto';
import type { Database, TenantTx } from '@care/db';
import type { MemoryView, ReinforceRequest, RememberRequest, ScratchpadRequest } from '@care/contracts';
import type { Config } from '../config';
import type { VectorIndexes } from '../db/vector-index';
import type { EmbeddingProvider } from '../embeddings/embedding-provider';
import { MemoryInserts } from './memory-inserts';
import { MemoryExistsError, MemoryNotFoundError, MemoryStateError } from './memory.errors';
import { memoryState, memoryView, reinforcedStrength, tierOfType, type MemoryRow } from './memory.model';
import { findMemory, listLinks, listScratchpad, updateMemory } from './memories.repository';

/** What the memory writers need: storage, the embedding space, the clock and the scratchpad lifetime. */
export interface MemoryWriteDeps {
  database: Database;
  embeddings: EmbeddingProvider;
  indexes: VectorIndexes;
  clock: () => Date;
  config: Pick<Config, 'SCRATCHPAD_TTL_SECONDS'>;
}

/** 409 for an id that is taken: MEMORY_FORGOTTEN/MERGED/EXPIRED when its memory is in such a state, else MEMORY_EXISTS. */
export async function refuseTakenId(tx: TenantTx, id: string, what: string, now: Date): Promise<never> {
  const existing = await findMemory(tx, id);
  const state = existing ? memoryState(existing, now) : 'ACTIVE';
  if (existing && state !== 'ACTIVE' && state !== 'SUPPRESSED')
    throw new MemoryStateError(id, state, existing.mergedInto);
  throw new MemoryExistsError(id, what);
}

/** Writes and maintenance of single memories: remember, scratchpad, get, forget, reinforce, suppress, resolve. */
export class MemoriesService {
  private readonly inserts: MemoryInserts;

  constructor(private readonly deps: MemoryWriteDeps) {
    this.inserts = new MemoryInserts(deps);
  }

  /** Stores a cognitive memory in the tier of its type; 409 if the id is taken. */
  async remember(tenantId: string, body: RememberRequest): Promise<MemoryView> {
    const tier = tierOfType(body.type);
    const ttl = tier === 'working' ? this.deps.config.SCRATCHPAD_TTL_SECONDS : undefined;
    const occurredAt = body.occurredAt ? new Date(body.occurredAt) : undefined;
    return this.create(tenantId, {
      id: body.id,
      text: body.text,
      type: body.type,
      source: body.source,
      tags: body.tags ?? [],
      ttl,
      occurredAt,
    });
  }

  /** Quick write to working memory: a working-tier memory that expires after its TTL. */
  async scratchpad(tenantId: string, body: ScratchpadRequest): Promise<MemoryView> {
    const ttl = body.ttlSeconds ?? this.deps.config.SCRATCHPAD_TTL_SECONDS;
    return this.create(tenantId, {
      text: body.text,
      type: 'WORKING',
      source: 'AGENT_INFERRED',
      tags: ['scratchpad'],
      ttl,
    });
  }

  /** Live scratchpad entries, newest first. */
  async listScratchpad(tenantId: string): Promise<MemoryView[]> {
    const now = this.deps.clock();
    const rows = await this.deps.database.withTenant(tenantId, (tx) => listScratchpad(tx, now));
    return rows.map((r) => memoryView(r, now));
  }

  /** One memory in any state, with its provenance links. */
  async get(tenantId: string, id: string): Promise<MemoryView> {
    const now = this.deps.clock();
    return this.deps.database.withTenant(tenantId, async (tx) => {
      const row = await findMemory(tx, id);
      if (!row) throw new MemoryNotFoundError(id);
      return memoryView(row, now, await listLinks(tx, id));
    });
  }

  /** Tombstones a memory: it leaves recall for good but stays readable for audit. */
  async forget(tenantId: string, id: string): Promise<MemoryView> {
    return this.change(tenantId, id, (_m, now) => ({ forgottenAt: now }));
  }

  /** Suppresses (or re-includes) a memory in recall. */
  async suppress(tenantId: string, id: string, suppressed: boolean): Promise<MemoryView> {
    return this.change(tenantId, id, (m, now) => ({
      suppressedAt: suppressed ? (m.suppressedAt ?? now) : null,
    }));
  }

  /** Marks a memory resolved (idempotent: the first time is kept). */
  async resolve(tenantId: string, id: string): Promise<MemoryView> {
    return this.change(tenantId, id, (m, now) => ({ resolvedAt: m.resolvedAt ?? now }));
  }

  /** Applies a positive or negative outcome to the memory's strength and counts. */
  async reinforce(
    tenantId: string,
    id: string,
    body: ReinforceRequest,
  ): Promise<MemoryView & { previousStrength: number }> {
    let previous = 0;
    const view = await this.change(tenantId, id, (m) => {
      previous = m.strength;
      const positive = body.outcome === 'POSITIVE';
      return {
        strength: reinforcedStrength(m.strength, body.outcome, body.weight ?? 1),
        positiveCount: m.positiveCount + (positive ? 1 : 0),
        negativeCount: m.negativeCount + (positive ? 0 : 1),
      };
    });
    return { ...view, previousStrength: previous };
  }

  private async change(
    tenantId: string,
    id: string,
    patchOf: (m: MemoryRow, now: Date) => Parameters<typeof updateMemory>[2],
  ): Promise<MemoryView> {
    const now = this.deps.clock();
    return this.deps.database.withTenant(tenantId, async (tx) => {
      const row = await findMemory(tx, id);
      if (!row) throw new MemoryNotFoundError(id);
      const state = memoryState(row, now);
      if (state !== 'ACTIVE' && state !== 'SUPPRESSED') throw new MemoryStateError(id, state, row.mergedInto);
      await updateMemory(tx, id, { ...patchOf(row, now), updatedAt: now });
      return memoryView((await findMemory(tx, id))!, now);
    });
  }

  private async create(
    tenantId: string,
    m: {
      id?: string;
      text: string;
      type: string;
      source: string;
      tags: string[];
      ttl?: number;
      occurredAt?: Date;
    },
  ): Promise<MemoryView> {
    const dimension = await this.deps.embeddings.dimension();
    const [embedding] = await this.deps.embeddings.embed([m.text]);
    await this.deps.indexes.ensure(dimension);
    const now = this.deps.clock();
    const id = m.id ?? randomUUID();
    const expiresAt = m.ttl ? new Date(now.getTime() + m.ttl * 1000) : null;
    // createdAt is when the memory happened (recency and decay read it); an import may date it in the past.
    const createdAt = m.occurredAt ?? now;
    const memory = {
      tenantId,
      id,
      tier: tierOfType(m.type),
      type: m.type,
      source: m.source,
      text: m.text,
      tags: m.tags,
      embedding,
      createdAt,
      expiresAt,
    };
    const row = await this.inserts.insert(memory, dimension, now);
    if (row) return memoryView(row, now);
    return this.deps.database.withTenant(tenantId, (tx) =>
      refuseTakenId(tx, id, 'another memory', this.deps.clock()),
    );
  }
}
