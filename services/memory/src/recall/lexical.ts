import { sql, type SQL } from 'drizzle-orm';
import type { TenantTx, Tx } from '@care/db';
import { sqlArray } from '../db/sql';

/** A query term (an English-stemmed lexeme) with its inverse document frequency in the partition. */
export interface WeightedTerm {
  lexeme: string;
  idf: number;
  /** Whether the term takes part in the full-text candidate filter (very common terms only score). */
  filter: boolean;
}

/** BM25's inverse document frequency: rare terms weigh more, a term in every memory weighs almost nothing. */
export function idf(df: number, n: number): number {
  return Math.log(1 + (Math.max(0, n - df) + 0.5) / (df + 0.5));
}

/** Share of the query's total IDF that a memory's matched terms carry: 1 = it has every query term. */
export function coverage(matchedIdf: number, totalIdf: number): number {
  return totalIdf > 0 ? Math.min(1, matchedIdf / totalIdf) : 0;
}

/** The query's distinct lexemes as PostgreSQL's English configuration stems them (stop words dropped). */
export async function queryLexemes(tx: Tx, text: string): Promise<string[]> {
  const r = await tx.execute<{ l: string }>(
    sql`select unnest(tsvector_to_array(to_tsvector('english', ${text}))) as l`,
  );
  return usableLexemes(r.rows.map((x) => x.l));
}

/** SQL array of the text's lexemes (as `queryLexemes` selects them), to fold into another statement. */
export function lexemesSql(text: string): SQL {
  return sql`array(select unnest(tsvector_to_array(to_tsvector('english', ${text}))))`;
}

/** The lexemes a search uses: quotes and backslashes would need tsquery escaping (rare enough to leave out). */
export function usableLexemes(lexemes: string[]): string[] {
  return lexemes.filter((l) => !/['\\]/.test(l)).slice(0, 32);
}

/** The OR tsquery text of some lexemes, each quoted so it is matched as is (no second stemming). */
export function orTsquery(lexemes: string[]): string {
  return lexemes.map((l) => `'${l}'`).join(' | ');
}

const TTL_MS = 60_000;
/** Document frequencies are counted up to this (a term in 10 000 memories is common whatever the number). */
export const DF_CAP = 10_000;

/** A term in more than a tenth of a large partition would flood the full-text candidates; it still scores. */
export function floodThreshold(n: number): number {
  return Math.max(50, n / 10);
}

/**
 * Document frequencies per partition, cached for a minute: IDF needs corpus counts, and counting a common
 * term on every recall would dominate its latency. Counts are capped (a term in 10 000 memories is common
 * whatever the exact number) and a little stale at worst, which moves IDF only slightly (it is a logarithm).
 */
export class TermStats {
  private readonly partitions = new Map<
    string,
    { n: number; nAt: number; df: Map<string, { df: number; at: number }> }
  >();

  /** Weighted terms of a query in `tenantId` (counts fetched for the terms not cached). */
  async weigh(tx: TenantTx, lexemes: string[], nowMs = Date.now()): Promise<WeightedTerm[]> {
    const { tenantId } = tx;
    if (lexemes.length === 0) return [];
    let p = this.partitions.get(tenantId);
    if (!p || nowMs - p.nAt > TTL_MS) {
      const r = await tx.execute<{ n: string | number }>(
        sql`select count(*) as n from memories where tenant_id = ${tenantId}`,
      );
      p = { n: Number(r.rows[0].n), nAt: nowMs, df: p?.df ?? new Map() };
      if (this.partitions.size > 10_000) this.partitions.clear();
      this.partitions.set(tenantId, p);
    }
    const missing = lexemes.filter((l) => {
      const hit = p.df.get(l);
      return !hit || nowMs - hit.at > TTL_MS;
    });
    if (missing.length) {
      const list = sqlArray(missing, 'text');
      const r = await tx.execute<{ l: string; df: string | number }>(sql`
        select t.l, (select count(*) from (select 1 from memories m where m.tenant_id = ${tenantId}
          and m.tsv @@ quote_literal(t.l)::tsquery limit ${DF_CAP}) c) as df
        from unnest(${list}) as t(l)`);
      if (p.df.size > 50_000) p.df.clear();
      for (const row of r.rows) p.df.set(row.l, { df: Number(row.df), at: nowMs });
    }
    const n = Math.max(p.n, 1);
    const floodAt = floodThreshold(n);
    return lexemes.map((lexeme) => {
      const df = p.df.get(lexeme)?.df ?? 0;
      // df 0 (unseen when counted, or new since): rare by definition, so it filters and weighs fully.
      return { lexeme, idf: idf(df, n), filter: df <= floodAt };
    });
  }

  /** Forgets a partition's counts (tests, or after bulk loads). */
  invalidate(tenantId?: string): void {
    if (tenantId === undefined) this.partitions.clear();
    else this.partitions.delete(tenantId);
  }
}
