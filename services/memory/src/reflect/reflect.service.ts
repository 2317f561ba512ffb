import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { ReflectReport } from '@care/contracts';
import type { Database, TenantTx } from '@care/db';
import type { Config } from '../config';
import { insertLinks, insertMemory, updateMemory } from '../memories/memories.repository';
import { reinforcedStrength, type Tier } from '../memories/memory.model';
import { findPartition, saveReflectReport } from '../partitions/partitions.repository';
import { centroid, greedyGroups, medoidIndex } from './clusters';
import {
  decayUnused,
  listSeeds,
  loadEmbeddings,
  nearestSiblings,
  purgeExpired,
  tryReflectLock,
  type SeedRow,
} from './reflect.repository';

/** Most memories one run looks at per pass (newest first), so a run stays bounded on large partitions. */
const REFLECT_SCAN_LIMIT = 500;
const NEIGHBOURS = 10;
const searchSettings = sql`select set_config('hnsw.ef_search', '40', true), set_config('hnsw.iterative_scan', 'relaxed_order', true)`;

/**
 * Sleep consolidation of one partition, in one transaction under an advisory lock: purge expired scratchpad
 * entries, promote repeated episodes to a semantic memory linked to its sources, merge near-duplicates, and
 * decay weak unused memories. Returns (and stores) the report.
 */
export class ReflectService {
  constructor(
    private readonly deps: {
      database: Database;
      clock: () => Date;
      config: Pick<
        Config,
        | 'DECAY_UNUSED_DAYS'
        | 'REFLECT_MERGE_SIMILARITY'
        | 'REFLECT_PROMOTE_SIMILARITY'
        | 'REFLECT_PROMOTE_MIN_COUNT'
      >;
    },
  ) {}

  /** Runs one consolidation of `tenantId`. */
  async reflect(tenantId: string, trigger: 'manual' | 'periodic' = 'manual'): Promise<ReflectReport> {
    const now = this.deps.clock();
    const report: ReflectReport = {
      partition: tenantId,
      trigger,
      skipped: false,
      startedAt: now.toISOString(),
      finishedAt: '',
      scanned: 0,
      merged: [],
      promoted: [],
      decayed: [],
      expired: [],
    };
    return this.deps.database.withTenant(tenantId, async (tx) => {
      const partition = await findPartition(tx);
      if (!(await tryReflectLock(tx)))
        return this.done(report, 'another consolidation of this partition is running');
      if (!partition) return this.done(report, 'the partition holds nothing yet');
      await tx.execute(searchSettings);
      report.expired = await purgeExpired(tx, now);
      // Promotion first: identical repeated episodes are exactly what should become knowledge; the merge
      // pass then folds the duplicate episodes (and a semantic memory that repeats an older one).
      report.promoted = await this.promoteEpisodes(tx, partition.dimension, now);
      report.merged = await this.mergeDuplicates(tx, partition.dimension, now, report);
      report.decayed = await decayUnused(tx, now, {
        weakBelow: 0.5,
        unusedDays: this.deps.config.DECAY_UNUSED_DAYS,
        intervalDays: 1,
        factor: 0.9,
        floor: 0.05,
      });
      this.done(report);
      await saveReflectReport(tx, now, report);
      return report;
    });
  }

  private done(report: ReflectReport, skipped?: string): ReflectReport {
    report.finishedAt = this.deps.clock().toISOString();
    if (skipped) Object.assign(report, { skipped: true, reason: skipped });
    return report;
  }

  private async groups(
    tx: TenantTx,
    dim: number,
    now: Date,
    seeds: SeedRow[],
    minSimilarity: number,
    minSize: number,
    episodicOnly: boolean,
  ): Promise<string[][]> {
    const neighbours = new Map<string, string[]>();
    for (const s of seeds) {
      const near = await nearestSiblings(tx, s.id, dim, now, NEIGHBOURS, episodicOnly);
      neighbours.set(
        s.id,
        near.filter((n) => n.similarity >= minSimilarity).map((n) => n.id),
      );
    }
    // Oldest first: the survivor of a merge keeps the longest history.
    const order = [...seeds]
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
      .map((s) => s.id);
    return greedyGroups(order, neighbours, minSize);
  }

  private async mergeDuplicates(
    tx: TenantTx,
    dim: number,
    now: Date,
    report: ReflectReport,
  ): Promise<ReflectReport['merged']> {
    const seeds = await listSeeds(tx, dim, now, REFLECT_SCAN_LIMIT, false);
    report.scanned = seeds.length;
    const byId = new Map(seeds.map((s) => [s.id, s]));
    const merged: ReflectReport['merged'] = [];
    for (const group of await this.groups(
      tx,
      dim,
      now,
      seeds,
      this.deps.config.REFLECT_MERGE_SIMILARITY,
      2,
      false,
    )) {
      const [survivorId, ...dupIds] = group;
      const members = group.map((id) => byId.get(id)).filter((m): m is SeedRow => !!m);
      const survivor = byId.get(survivorId);
      if (!survivor) continue; // a neighbour outside the scanned window: left for a later run
      const strongest = Math.max(...members.map((m) => m.strength));
      await updateMemory(tx, survivorId, {
        strength: reinforcedStrength(strongest, 'POSITIVE', 0.5 * dupIds.length),
        positiveCount: members.reduce((n, m) => n + m.positiveCount, 0),
        negativeCount: members.reduce((n, m) => n + m.negativeCount, 0),
        tags: [...new Set(members.flatMap((m) => m.tags))],
        updatedAt: now,
      });
      for (const id of dupIds)
        await updateMemory(tx, id, { mergedInto: survivorId, mergedAt: now, updatedAt: now });
      await insertLinks(
        tx,
        tx.tenantId,
        dupIds.map((toId) => ({ fromId: survivorId, relation: 'MERGED_FROM', toId })),
        now,
      );
      merged.push({ survivorId, mergedIds: dupIds });
    }
    return merged;
  }

  private async promoteEpisodes(tx: TenantTx, dim: number, now: Date): Promise<ReflectReport['promoted']> {
    const seeds = await listSeeds(tx, dim, now, REFLECT_SCAN_LIMIT, true);
    const byId = new Map(seeds.map((s) => [s.id, s]));
    const { REFLECT_PROMOTE_SIMILARITY, REFLECT_PROMOTE_MIN_COUNT } = this.deps.config;
    const promoted: ReflectReport['promoted'] = [];
    for (const group of await this.groups(
      tx,
      dim,
      now,
      seeds,
      REFLECT_PROMOTE_SIMILARITY,
      REFLECT_PROMOTE_MIN_COUNT,
      true,
    )) {
      const vectors = await loadEmbeddings(tx, group);
      const members = group.filter((id) => vectors.has(id) && byId.has(id));
      if (members.length < REFLECT_PROMOTE_MIN_COUNT) continue;
      const typical = byId.get(members[medoidIndex(members.map((id) => vectors.get(id)!))])!;
      const semanticId = `semantic-${randomUUID()}`;
      const sources = members.map((id) => byId.get(id)!);
      await insertMemory(tx, {
        tenantId: tx.tenantId,
        id: semanticId,
        tier: 'semantic' satisfies Tier,
        type: 'SEMANTIC',
        source: 'SYSTEM',
        text: typical.text,
        tags: [...new Set([...sources.flatMap((s) => s.tags), 'consolidated'])],
        embedding: centroid(members.map((id) => vectors.get(id)!)),
        strength: Math.max(0.6, ...sources.map((s) => s.strength)),
        createdAt: now,
      });
      await insertLinks(
        tx,
        tx.tenantId,
        members.map((toId) => ({ fromId: semanticId, relation: 'DERIVED_FROM', toId })),
        now,
      );
      for (const id of members) await updateMemory(tx, id, { consolidatedInto: semanticId, updatedAt: now });
      promoted.push({ semanticId, sourceIds: members, text: typical.text });
    }
    return promoted;
  }
}
