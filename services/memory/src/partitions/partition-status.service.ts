import path from 'node:path';
import { redactUri } from '@care/db';
import type { MemoryContext } from '../memories/memory-context';
import { TIERS } from '../recall/fusion';
import { countByTier, countReminders } from './partition-status.repository';
import { findPartition } from './partitions.repository';

/** Where the data lives and whether it survives a restart. */
export function persistenceOf(ctx: Pick<MemoryContext, 'config' | 'database'>): Record<string, unknown> {
  const uri = ctx.config.DATABASE_URI;
  if (ctx.database.kind === 'postgres')
    return { engine: 'postgres', durable: true, location: redactUri(uri ?? '') };
  const ephemeral = uri?.startsWith('pglite://memory') ?? false;
  return {
    engine: 'pglite',
    durable: !ephemeral,
    location: ephemeral ? 'memory' : path.resolve(ctx.config.DATA_DIR),
  };
}

/** GET /api/v1/memory/status: tier counts, partition information, persistence status. */
export class PartitionStatusService {
  constructor(private readonly ctx: MemoryContext) {}

  /** The status of the caller's partition. */
  async status(tenantId: string): Promise<Record<string, unknown>> {
    const now = this.ctx.clock();
    const { partition, counts, reminders } = await this.ctx.database.withTenant(tenantId, async (tx) => ({
      partition: await findPartition(tx, tenantId),
      counts: await countByTier(tx, tenantId, now),
      reminders: await countReminders(tx, tenantId),
    }));
    const tiers = Object.fromEntries(
      TIERS.map((t) => {
        const c = counts.find((x) => x.tier === t);
        const { tier: _tier, ...rest } = c ?? {
          tier: t,
          total: 0,
          active: 0,
          suppressed: 0,
          forgotten: 0,
          merged: 0,
          expired: 0,
          resolved: 0,
        };
        return [t, rest];
      }),
    );
    return {
      partition: {
        id: tenantId,
        exists: partition !== undefined,
        embeddingModel: partition?.embeddingModel ?? null,
        dimension: partition?.dimension ?? null,
        createdAt: partition?.createdAt.toISOString() ?? null,
        lastReflectAt: partition?.lastReflectAt?.toISOString() ?? null,
      },
      tiers,
      totals: {
        memories: counts.reduce((n, c) => n + c.total, 0),
        active: counts.reduce((n, c) => n + c.active, 0),
      },
      reminders: { pending: reminders.PENDING ?? 0, fired: reminders.FIRED ?? 0 },
      embedding: { provider: this.ctx.embeddings.kind, model: this.ctx.embeddings.model },
      operatingMode: this.ctx.config.OPERATING_MODE,
      persistence: persistenceOf(this.ctx),
    };
  }
}
