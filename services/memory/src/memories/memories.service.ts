import { randomUUID } from 'node:crypto';
import type { Tx } from '@care/db';
import type { DocumentIngest, RememberRequest, ReinforceRequest, ScratchpadRequest } from '@care/contracts';
import { reinforcedStrength } from '../recall/fusion';
import { writableSpace } from '../partitions/partition-space';
import type { MemoryContext } from './memory-context';
import { MemoryInserts } from './memory-inserts';
import {
  MemoryExistsError,
  MemoryNotFoundError,
  MemoryStateError,
  VectorDimensionError,
} from './memory.errors';
import { memoryState, memoryView, tierOfType, type MemoryRow } from './memory.model';
import { findMemory, listLinks, listScratchpad, updateMemory, upsertDocument } from './memories.repository';

type View = Record<string, unknown>;

/** Writes and maintenance of single memories: remember, ingest, scratchpad, forget, reinforce, suppress, resolve. */
export class MemoriesService {
  private readonly inserts: MemoryInserts;

  constructor(private readonly ctx: MemoryContext) {
    this.inserts = new MemoryInserts(ctx);
  }

  /** Stores a cognitive memory in the tier of its type; 409 if the id is taken. */
  async remember(tenantId: string, body: RememberRequest): Promise<View> {
    const tier = tierOfType(body.type);
    const ttl = tier === 'working' ? this.ctx.config.SCRATCHPAD_TTL_SECONDS : undefined;
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
  async scratchpad(tenantId: string, body: ScratchpadRequest): Promise<View> {
    const ttl = body.ttlSeconds ?? this.ctx.config.SCRATCHPAD_TTL_SECONDS;
    return this.create(tenantId, {
      text: body.text,
      type: 'WORKING',
      source: 'AGENT_INFERRED',
      tags: ['scratchpad'],
      ttl,
    });
  }

  /** Live scratchpad entries, newest first. */
  async listScratchpad(tenantId: string): Promise<View[]> {
    const now = this.ctx.clock();
    const rows = await this.ctx.database.withTenant(tenantId, (tx) => listScratchpad(tx, tenantId, now));
    return rows.map((r) => memoryView(r, now));
  }

  /** Stores or replaces a document with its pre-computed vector (400 when its size is not the partition's). */
  async ingestDocument(tenantId: string, body: DocumentIngest): Promise<View> {
    const dimension = await this.ctx.embeddings.dimension();
    await this.ctx.indexes.ensure(dimension);
    const now = this.ctx.clock();
    return this.ctx.database.withTenant(tenantId, async (tx) => {
      const space = await writableSpace(tx, tenantId, this.ctx.embeddings, dimension, now);
      if (body.vector.length !== space.dimension)
        throw new VectorDimensionError(body.vector.length, space.dimension);
      const outcome = await upsertDocument(tx, {
        tenantId,
        id: body.id,
        tier: 'documents',
        type: 'SEMANTIC',
        source: 'DOCUMENT',
        text: body.text,
        tags: body.tags ?? [],
        embedding: body.vector,
        createdAt: now,
      });
      if (outcome === 'blocked')
        await this.refuseTakenId(tx, tenantId, body.id, 'a memory that is not a document');
      const row = (await findMemory(tx, tenantId, body.id))!;
      return { ...memoryView(row, now), created: outcome === 'created' };
    });
  }

  /** One memory in any state, with its provenance links. */
  async get(tenantId: string, id: string): Promise<View> {
    const now = this.ctx.clock();
    return this.ctx.database.withTenant(tenantId, async (tx) => {
      const row = await findMemory(tx, tenantId, id);
      if (!row) throw new MemoryNotFoundError(id);
      return memoryView(row, now, await listLinks(tx, tenantId, id));
    });
  }

  /** Tombstones a memory: it leaves recall for good but stays readable for audit. */
  async forget(tenantId: string, id: string): Promise<View> {
    return this.change(tenantId, id, (_m, now) => ({ forgottenAt: now }));
  }

  /** Suppresses (or re-includes) a memory in recall. */
  async suppress(tenantId: string, id: string, suppressed: boolean): Promise<View> {
    return this.change(tenantId, id, (m, now) => ({
      suppressedAt: suppressed ? (m.suppressedAt ?? now) : null,
    }));
  }

  /** Marks a memory resolved (idempotent: the first time is kept). */
  async resolve(tenantId: string, id: string): Promise<View> {
    return this.change(tenantId, id, (m, now) => ({ resolvedAt: m.resolvedAt ?? now }));
  }

  /** Applies a positive or negative outcome to the memory's strength and counts. */
  async reinforce(tenantId: string, id: string, body: ReinforceRequest): Promise<View> {
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
    patchOf: (m: MemoryRow, now: Date) => Parameters<typeof updateMemory>[3],
  ): Promise<View> {
    const now = this.ctx.clock();
    return this.ctx.database.withTenant(tenantId, async (tx) => {
      const row = await findMemory(tx, tenantId, id);
      if (!row) throw new MemoryNotFoundError(id);
      const state = memoryState(row, now);
      if (state !== 'ACTIVE' && state !== 'SUPPRESSED') throw new MemoryStateError(id, state, row.mergedInto);
      await updateMemory(tx, tenantId, id, { ...patchOf(row, now), updatedAt: now });
      return memoryView((await findMemory(tx, tenantId, id))!, now);
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
  ): Promise<View> {
    const dimension = await this.ctx.embeddings.dimension();
    const [embedding] = await this.ctx.embeddings.embed([m.text]);
    await this.ctx.indexes.ensure(dimension);
    const now = this.ctx.clock();
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
    return this.ctx.database.withTenant(tenantId, (tx) =>
      this.refuseTakenId(tx, tenantId, id, 'another memory'),
    );
  }

  private async refuseTakenId(tx: Tx, tenantId: string, id: string, what: string): Promise<never> {
    const existing = await findMemory(tx, tenantId, id);
    const state = existing ? memoryState(existing, this.ctx.clock()) : 'ACTIVE';
    if (existing && state !== 'ACTIVE' && state !== 'SUPPRESSED')
      throw new MemoryStateError(id, state, existing.mergedInto);
    throw new MemoryExistsError(id, what);
  }
}
