import path from 'node:path';
import type { PartitionStatus } from '@care/contracts';
import { redactUri, type Database } from '@care/db';
import type { Config } from '../config';
import type { EmbeddingProvider } from '../embeddings/embedding-provider';
import { TIERS } from '../memories/memory.model';
import { countByTier, countReminders } from './partition-status.repository';
import { findPartition } from '../partitions/partitions.repository';

/** Where the data lives and whether it survives a restart. */
function persistenceOf(d: {
  config: Pick<Config, 'DATABASE_URI' | 'DATA_DIR'>;
  database: Pick<Database, 'kind'>;
}): PartitionStatus['persistence'] {
  const uri = d.config.DATABASE_URI;
  if (d.database.kind === 'postgres')
    return { engine: 'postgres', durable: true, location: redactUri(uri ?? '') };
  const ephemeral = uri?.startsWith('pglite://memory') ?? false;
  return {
    engine: 'pglite',
    durable: !ephemeral,
    location: ephemeral ? 'memory' : path.resolve(d.config.DATA_DIR),
  };
}

/** GET /api/v1/memory/status: tier counts, partition information, persistence status. */
export class PartitionStatusService {
  constructor(
    private readonly deps: {
      database: Database;
      embeddings: Pick<EmbeddingProvider, 'kind' | 'model'>;
      clock: () => Date;
      config: Pick<Config, 'DATABASE_URI' | 'DATA_DIR' | 'OPERATING_MODE'>;
    },
  ) {}

  /** The status of the caller's partition. */
  async status(tenantId: string): Promise<PartitionStatus> {
    const now = this.deps.clock();
    const { partition, counts, reminders } = await this.deps.database.withTenant(tenantId, async (tx) => ({
      partition: await findPartition(tx),
      counts: await countByTier(tx, now),
      reminders: await countReminders(tx),
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
      embedding: { provider: this.deps.embeddings.kind, model: this.deps.embeddings.model },
      operatingMode: this.deps.config.OPERATING_MODE,
      persistence: persistenceOf(this.deps),
    };
  }
}
