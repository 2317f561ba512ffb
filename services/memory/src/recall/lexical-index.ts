import { sql } from 'drizzle-orm';
import type { Database, Tx } from '@care/db';
import type { Tier } from './fusion';
import { DF_CAP, floodThreshold, idf, type WeightedTerm } from './lexical';

/** Channel of the change notifications (drizzle/0003_memory_change_notify.sql). */
export const CHANGE_CHANNEL = 'care_memory_changed';

/** More pending changes than this in one partition: reload it whole instead of row by row. */
const RELOAD_AT = 5_000;

/** What the index keeps of one memory: its lexemes and everything the recall scope looks at. */
interface IndexedMemory {
  id: string;
  tier: Tier;
  dim: number;
  /** Not forgotten, merged or suppressed (expiry is checked against the recall's clock). */
  live: boolean;
  expiresAt: number | null;
  /** Its distinct lexemes, each the one string instance its posting holds. */
  lexemes: string[];
}

/** The memories that contain a lexeme (in any state), and the lexeme's one shared string. */
interface Posting {
  lexeme: string;
  memories: Set<IndexedMemory>;
}

/** One partition's memories and postings. */
class PartitionIndex {
  readonly memories = new Map<string, IndexedMemory>();
  readonly postings = new Map<string, Posting>();
  /** Ids changed since the last sync; `all` = reload. */
  pending: Set<string> | 'all' = 'all';

  put(m: Omit<IndexedMemory, 'lexemes'>, lexemes: string[]): void {
    this.remove(m.id);
    const memory: IndexedMemory = { ...m, lexemes: [] };
    for (const l of lexemes) {
      let posting = this.postings.get(l);
      if (!posting) this.postings.set(l, (posting = { lexeme: l, memories: new Set() }));
      posting.memories.add(memory);
      memory.lexemes.push(posting.lexeme);
    }
    this.memories.set(m.id, memory);
  }

  remove(id: string): void {
    const old = this.memories.get(id);
    if (!old) return;
    for (const l of old.lexemes) {
      const posting = this.postings.get(l);
      posting?.memories.delete(old);
      if (posting?.memories.size === 0) this.postings.delete(l);
    }
    this.memories.delete(id);
  }

  /** How many memories contain the lexeme. */
  frequency(lexeme: string): number {
    return this.postings.get(lexeme)?.memories.size ?? 0;
  }

  contains(m: IndexedMemory, lexeme: string): boolean {
    return this.postings.get(lexeme)?.memories.has(m) ?? false;
  }

  clear(): void {
    this.memories.clear();
    this.postings.clear();
  }
}

/** A full-text candidate: its rank (SQL `rank()` semantics: ties share) and lexical score. */
export interface TextCandidate {
  id: string;
  textRank: number;
  textScore: number;
}

/** The scope of one search, as the SQL searches apply it. */
export interface LexicalScope {
  dim: number;
  tiers: Tier[];
  now: Date;
  pool: number;
}

type Row = {
  id: string;
  tier: Tier;
  dim: number;
  live: boolean;
  expires_at: string | Date | null;
  lexemes: string[];
};

/**
 * The full-text half of recall in process, for the embedded (single-process) database: every memory's lexemes
 * (those of its `tsv`) with the fields the recall scope filters on, per partition. PostgreSQL stays the source
 * of truth: a partition is loaded from it on first use, and a trigger notifies every committed change of a
 * memory, after which the next search of that partition re-reads exactly the changed rows (in its own
 * transaction, under the tenant's row-level security) before it answers. Scores and ranks equal those of the
 * SQL search (`findCandidates`), which the tests check; ADR 0305 records the choice.
 */
export class LexicalIndex {
  private readonly partitions = new Map<string, PartitionIndex>();
  private readonly subscription: Promise<() => Promise<void>>;
  private closed = false;
  private active = false;

  private constructor(client: ListeningClient) {
    this.subscription = client.listen(CHANGE_CHANNEL, (payload) => this.onChange(payload));
    // A failed LISTEN leaves the index unused and recall on the SQL path.
    this.subscription.then(
      () => (this.active = true),
      () => undefined,
    );
  }

  /** True once change notifications flow (and until close): only then may the index answer. */
  get listening(): boolean {
    return this.active && !this.closed;
  }

  /** The index for an embedded database; undefined for a PostgreSQL server (other processes write there too). */
  static forDatabase(database: Database): LexicalIndex | undefined {
    if (database.kind !== 'pglite') return undefined;
    return new LexicalIndex((database.db as unknown as { $client: ListeningClient }).$client);
  }

  /** Resolves once change notifications flow; call outside any transaction. False if they cannot. */
  async ready(): Promise<boolean> {
    if (this.closed) return false;
    return this.subscription.then(
      () => !this.closed,
      () => false,
    );
  }

  /**
   * Loads every partition of the database (at start, so that no recall pays the load), one tenant transaction
   * each; returns how many. Recalls arriving meanwhile queue behind it or load their partition themselves.
   */
  async warm(database: Database): Promise<number> {
    if (!(await this.ready())) return 0;
    const ids = await database.withSystem(async (tx) => {
      const r = await tx.execute<{ tenant_id: string }>(
        sql`select tenant_id from partitions order by tenant_id`,
      );
      return r.rows.map((x) => x.tenant_id);
    });
    for (const id of ids) await database.withTenant(id, (tx) => this.sync(tx, id));
    return ids.length;
  }

  /** Stops listening (the database may stay open). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.partitions.clear();
    const unlisten = await this.subscription.catch(() => undefined);
    await unlisten?.().catch(() => undefined);
  }

  private onChange(payload: string): void {
    if (payload === '') {
      for (const p of this.partitions.values()) p.pending = 'all';
      return;
    }
    let tenantId: unknown;
    let id: unknown;
    try {
      [tenantId, id] = JSON.parse(payload) as unknown[];
    } catch {
      for (const p of this.partitions.values()) p.pending = 'all';
      return;
    }
    const p = typeof tenantId === 'string' ? this.partitions.get(tenantId) : undefined;
    if (!p || p.pending === 'all' || typeof id !== 'string') return;
    p.pending.add(id);
    if (p.pending.size > RELOAD_AT) p.pending = 'all';
  }

  /** Brings the partition up to date inside the caller's tenant transaction (only `ready()` indexes). */
  private async sync(tx: Tx, tenantId: string): Promise<PartitionIndex> {
    let p = this.partitions.get(tenantId);
    if (!p) this.partitions.set(tenantId, (p = new PartitionIndex()));
    if (p.pending === 'all') {
      p.pending = new Set();
      const rows = await selectRows(tx, tenantId, undefined);
      p.clear();
      for (const r of rows) p.put(toIndexed(r), r.lexemes);
    } else if (p.pending.size) {
      const ids = [...p.pending];
      p.pending = new Set();
      const rows = await selectRows(tx, tenantId, ids);
      for (const id of ids) p.remove(id);
      for (const r of rows) p.put(toIndexed(r), r.lexemes);
    }
    return p;
  }

  /**
   * The query's terms weighted as `TermStats.weigh` does (BM25 IDF over every memory of the partition, document
   * frequencies capped alike), from exact, current counts.
   */
  async weigh(tx: Tx, tenantId: string, lexemes: string[]): Promise<WeightedTerm[]> {
    const p = await this.sync(tx, tenantId);
    const n = Math.max(p.memories.size, 1);
    const floodAt = floodThreshold(n);
    return lexemes.map((lexeme) => {
      const df = Math.min(DF_CAP, p.frequency(lexeme));
      return { lexeme, idf: idf(df, n), filter: df <= floodAt };
    });
  }

  /**
   * The `pool` best full-text matches in scope (memories containing a filtering term, ordered by lexical score,
   * then id), each ranked; call after `weigh` in the same transaction.
   */
  search(tenantId: string, terms: WeightedTerm[], scope: LexicalScope): TextCandidate[] {
    const p = this.partitions.get(tenantId);
    if (!p) return [];
    const nowMs = scope.now.getTime();
    const tiers = new Set(scope.tiers);
    const seen = new Set<IndexedMemory>();
    const found: Array<{ id: string; score: number }> = [];
    for (const t of terms) {
      if (!t.filter) continue;
      for (const m of p.postings.get(t.lexeme)?.memories ?? []) {
        if (seen.has(m)) continue;
        seen.add(m);
        if (m.dim !== scope.dim || !tiers.has(m.tier) || !m.live) continue;
        if (m.expiresAt !== null && m.expiresAt <= nowMs) continue;
        found.push({ id: m.id, score: this.scoreIn(p, m.id, terms) });
      }
    }
    found.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const top = found.slice(0, Math.max(0, scope.pool));
    let rank = 0;
    return top.map((c, i) => {
      // SQL rank(): a tie takes the rank of the first of its run.
      if (i === 0 || top[i - 1].score !== c.score) rank = i + 1;
      return { id: c.id, textScore: c.score, textRank: rank };
    });
  }

  /** Lexical score of one memory of a synced partition: the IDF share of the query terms it contains. */
  score(tenantId: string, id: string, terms: WeightedTerm[]): number {
    const p = this.partitions.get(tenantId);
    return p ? this.scoreIn(p, id, terms) : 0;
  }

  private scoreIn(p: PartitionIndex, id: string, terms: WeightedTerm[]): number {
    let total = 0;
    for (const t of terms) total += t.idf;
    if (!(total > 0)) return 0;
    const m = p.memories.get(id);
    if (!m) return 0;
    let matched = 0;
    for (const t of terms) if (p.contains(m, t.lexeme)) matched += t.idf;
    return matched / total;
  }
}

/** The part of the PGlite client the index uses. */
interface ListeningClient {
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
}

async function selectRows(tx: Tx, tenantId: string, ids: string[] | undefined): Promise<Row[]> {
  const only =
    ids === undefined
      ? sql``
      : sql`and m.id = any(array[${sql.join(
          ids.map((i) => sql`${i}`),
          sql`, `,
        )}]::text[])`;
  const r = await tx.execute<Row>(sql`
    select m.id, m.tier, m.dim, (m.forgotten_at is null and m.merged_into is null and m.suppressed_at is null) as live,
           m.expires_at, coalesce(tsvector_to_array(m.tsv), '{}') as lexemes
    from memories m where m.tenant_id = ${tenantId} ${only}`);
  return r.rows;
}

function toIndexed(r: Row): Omit<IndexedMemory, 'lexemes'> {
  return {
    id: r.id,
    tier: r.tier,
    dim: Number(r.dim),
    live: r.live,
    expiresAt: r.expires_at === null ? null : new Date(r.expires_at).getTime(),
  };
}
