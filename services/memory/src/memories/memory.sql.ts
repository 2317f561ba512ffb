// The memory row in raw SQL: the lifecycle conditions and the one select list (with its mapper) that the
// searches, why-not, consolidation and the status counts share. The rules mirror `memoryState`.
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '@care/db';
import type { MemoryRow } from './memory.model';

const col = (alias: string, name: string) => sql.raw(`${alias}.${name}`);

/** SQL condition: the memory aliased `alias` is kept: neither forgotten nor merged (it may be suppressed or expired). */
export function keptCondition(alias = 'm'): SQL {
  return sql`${col(alias, 'forgotten_at')} is null and ${col(alias, 'merged_into')} is null`;
}

/** SQL condition: the memory has no time to live or it has not passed at `now`. */
export function unexpiredCondition(now: Date | SQL, alias = 'm'): SQL {
  return sql`(${col(alias, 'expires_at')} is null or ${col(alias, 'expires_at')} > ${now})`;
}

/**
 * SQL condition: the memory can be recalled apart from its expiry (kept and not suppressed); the in-process
 * full-text index checks expiry itself, against the clock of each recall.
 */
export function recallableBeforeExpiry(alias = 'm'): SQL {
  return sql`${keptCondition(alias)} and ${col(alias, 'suppressed_at')} is null`;
}

/** SQL condition: the memory can be recalled now (not forgotten, merged, suppressed or expired: state ACTIVE). */
export function recallableCondition(now: Date | SQL, alias = 'm'): SQL {
  return sql`${recallableBeforeExpiry(alias)} and ${unexpiredCondition(now, alias)}`;
}

/** A memory's content and standing, as the searches and consolidation read it (no lifecycle dates, no vector). */
export type MemorySummary = Pick<
  MemoryRow,
  | 'id'
  | 'tier'
  | 'type'
  | 'source'
  | 'text'
  | 'tags'
  | 'strength'
  | 'positiveCount'
  | 'negativeCount'
  | 'createdAt'
> & { resolved: boolean };

/** The columns {@link memorySummaryColumns} selects, as the driver returns them. */
export type MemorySummarySqlRow = Pick<MemoryRow, 'id' | 'tier' | 'type' | 'source' | 'text' | 'tags'> & {
  strength: number | string;
  positive_count: number | string;
  negative_count: number | string;
  created_at: string | Date;
  resolved: boolean;
};

/** The select list of a {@link MemorySummary} of the memory aliased `alias`. */
export function memorySummaryColumns(alias = 'm'): SQL {
  const c = (name: string) => col(alias, name);
  return sql`${c('id')}, ${c('tier')}, ${c('type')}, ${c('source')}, ${c('text')}, ${c('tags')}, ${c('strength')}, ${c('positive_count')}, ${c('negative_count')}, ${c('created_at')}, (${c('resolved_at')} is not null) as resolved`;
}

/** The {@link MemorySummary} of a row selected with {@link memorySummaryColumns}. */
export function memorySummaryOf(r: MemorySummarySqlRow): MemorySummary {
  return {
    id: r.id,
    tier: r.tier,
    type: r.type,
    source: r.source,
    text: r.text,
    tags: r.tags,
    strength: Number(r.strength),
    positiveCount: Number(r.positive_count),
    negativeCount: Number(r.negative_count),
    createdAt: new Date(r.created_at),
    resolved: r.resolved,
  };
}

/** Runs a statement that selects {@link memorySummaryColumns} and maps its rows. */
export async function selectSummaries(tx: Tx, statement: SQL): Promise<MemorySummary[]> {
  const r = await tx.execute<MemorySummarySqlRow>(statement);
  return r.rows.map(memorySummaryOf);
}
