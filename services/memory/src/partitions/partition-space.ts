import type { TenantTx } from '@care/db';
import type { EmbeddingProvider } from '../embeddings/embedding-provider';
import { createPartitionIfMissing, findPartition, type PartitionRow } from './partitions.repository';
import { EmbeddingSpaceMismatchError } from './partition.errors';

/**
 * The vector space writes go to: the partition's recorded one, created from the provider on first write.
 * `dimension` must come from `provider.dimension()` (asked before the transaction: it may call the provider).
 */
export async function writableSpace(
  tx: TenantTx,
  provider: EmbeddingProvider,
  dimension: number,
  now: Date,
): Promise<PartitionRow> {
  // Read first: the partition exists on every write but the first, and a read is cheaper than an upsert.
  const partition =
    (await findPartition(tx)) ?? (await createPartitionIfMissing(tx, provider.model, dimension, now));
  assertSameSpace(partition, provider, dimension);
  return partition;
}

/** The partition if it exists and matches the provider; undefined when nothing was ever written. */
export async function readableSpace(
  tx: TenantTx,
  provider: EmbeddingProvider,
  dimension: number,
): Promise<PartitionRow | undefined> {
  return checkedSpace(await findPartition(tx), provider, dimension);
}

/** The partition's space if there is one, after checking it matches the provider (409 otherwise). */
export function checkedSpace<T extends { embeddingModel: string; dimension: number }>(
  partition: T | undefined,
  provider: EmbeddingProvider,
  dimension: number,
): T | undefined {
  if (partition) assertSameSpace(partition, provider, dimension);
  return partition;
}

function assertSameSpace(
  partition: { embeddingModel: string; dimension: number },
  provider: EmbeddingProvider,
  dimension: number,
): void {
  if (partition.embeddingModel !== provider.model || partition.dimension !== dimension) {
    throw new EmbeddingSpaceMismatchError(partition, { model: provider.model, dimension });
  }
}
