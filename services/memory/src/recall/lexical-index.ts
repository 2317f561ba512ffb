import { sql } from 'drizzle-orm';
import type { Database, TenantTx } from '@care/db';
import { sqlArray } from '../db/sql';
import type { Tier } from '../memories/memory.model';
import { recallableBeforeExpiry } from '../memories/memory.sql';
import { DF_CAP, floodThreshold, idf, type WeightedTerm } from './lexical';

/** Channel of the change notifications (drizzle/0003_memory_change_notify.sql). */
const CHANGE_CHANNEL = 'care_memory_changed';

/** More pending changes than this in one partition: reload it whole instead of row by row. */
const RELOAD_AT = 5_000;

/** What the index keeps of one memory: everything the recall scope looks at (its lexemes are kept apart). */
interface IndexedMemory {
  id: string;
  tier: Tier;
  dim: number;
  /** Not forgotten, merged or suppressed (expiry is checked against the recall's clock). */
  live: boolean;
  expiresAt: number | null;
  tags: string[];
}

const TIER_CODES: readonly Tier[] = ['working', 'episodic', 'semantic', 'documents'];

/**
 * The memories that contain a lexeme (in any state), as the ascending slot numbers of `PartitionIndex`, in the
 * first `size` entries of `slots`.
 */
interface Posting {
  /** The lexeme, the one string instance every memory holding it keeps (so a load keeps no duplicates). */
  lexeme: string;
  slots: Int32Array;
  size: number;
}

/** Index of `slot` in the posting, or -(insertion point) - 1 when absent. */
function find(posting: Posting, slot: number): number {
  let lo = 0;
  let hi = posting.size - 1;
  const a = posting.slots;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = a[mid];
    if (v < slot) lo = mid + 1;
    else if (v > slot) hi = mid - 1;
    else return mid;
  }
  return -lo - 1;
}

/**
 * One partition's memories and postings, laid out for the search's memory access: each memory has a slot
 * number, its scope fields live in typed arrays indexed by slot, and each posting is a sorted array of slots. A
 * search reads a few contiguous postings and a few compact arrays instead of chasing one heap object per
 * memory (at 100k memories that chasing, mostly cache misses, cost ~5 ms a search), and the garbage collector
 * has a few hundred arrays to trace instead of a million set entries.
 */
class PartitionIndex {
  /** Slot of each memory id. */
  private readonly slotOf = new Map<string, number>();
  /** Per slot: id (undefined when free) and distinct lexemes (each the shared instance of its posting). */
  private ids: Array<string | undefined> = [];
  private lexemes: Array<string[] | undefined> = [];
  /** Per slot: the memory's tags (a recall may filter on them, ADR 0310). */
  private tags: Array<string[] | undefined> = [];
  private readonly free: number[] = [];
  dims = new Int32Array(1024);
  tiers = new Uint8Array(1024);
  live = new Uint8Array(1024);
  /** Expiry in epoch ms, NaN when none. */
  expiresAt = new Float64Array(1024);
  /** Scratch of `LexicalIndex.search` (synchronous, so never shared by two searches): the last search per slot. */
  seenBy = new Float64Array(1024);
  /** ... and which of that search's terms the memory holds (bit i = term i), -1 when out of scope. */
  termMask = new Int32Array(1024);
  readonly postings = new Map<string, Posting>();
  /** Ids changed since the last sync; `all` = reload. */
  pending: Set<string> | 'all' = 'all';

  /** How many memories the partition holds (any state). */
  get size(): number {
    return this.slotOf.size;
  }

  id(slot: number): string {
    return this.ids[slot] as string;
  }

  slot(id: string): number | undefined {
    return this.slotOf.get(id);
  }

  put(m: IndexedMemory, lexemes: string[]): void {
    this.remove(m.id);
    const slot = this.free.pop() ?? this.ids.length;
    if (slot >= this.dims.length) this.grow(slot + 1);
    this.ids[slot] = m.id;
    this.slotOf.set(m.id, slot);
    this.dims[slot] = m.dim;
    this.tiers[slot] = Math.max(0, TIER_CODES.indexOf(m.tier));
    this.live[slot] = m.live ? 1 : 0;
    this.expiresAt[slot] = m.expiresAt ?? NaN;
    this.tags[slot] = m.tags.length ? m.tags : undefined;
    this.seenBy[slot] = 0;
    const own: string[] = [];
    for (const l of new Set(lexemes)) {
      let posting = this.postings.get(l);
      if (!posting) {
        posting = { lexeme: l, slots: new Int32Array(4), size: 0 };
        this.postings.set(l, posting);
      }
      const at = find(posting, slot);
      if (at >= 0) continue;
      const i = -at - 1;
      if (posting.size === posting.slots.length) {
        const bigger = new Int32Array(posting.slots.length * 2);
        bigger.set(posting.slots);
        posting.slots = bigger;
      }
      posting.slots.copyWithin(i + 1, i, posting.size);
      posting.slots[i] = slot;
      posting.size++;
      own.push(posting.lexeme);
    }
    this.lexemes[slot] = own;
  }

  remove(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    for (const l of this.lexemes[slot] ?? []) {
      const posting = this.postings.get(l);
      if (!posting) continue;
      const at = find(posting, slot);
      if (at < 0) continue;
      posting.slots.copyWithin(at, at + 1, posting.size);
      posting.size--;
      if (posting.size === 0) this.postings.delete(l);
    }
    this.slotOf.delete(id);
    this.ids[slot] = undefined;
    this.lexemes[slot] = undefined;
    this.tags[slot] = undefined;
    this.free.push(slot);
  }

  /** How many memories contain the lexeme. */
  frequency(lexeme: string): number {
    return this.postings.get(lexeme)?.size ?? 0;
  }

  contains(slot: number, lexeme: string): boolean {
    const posting = this.postings.get(lexeme);
    return posting !== undefined && find(posting, slot) >= 0;
  }

  /** Whether the memory in `slot` is in the scope of a search at `nowMs`. */
  inScope(
    slot: number,
    dim: number,
    tiers: Uint8Array,
    nowMs: number,
    tagsAny?: ReadonlySet<string>,
  ): boolean {
    if (this.live[slot] === 0 || this.dims[slot] !== dim || tiers[this.tiers[slot]] === 0) return false;
    const expires = this.expiresAt[slot];
    if (!(Number.isNaN(expires) || expires > nowMs)) return false;
    return tagsAny === undefined || (this.tags[slot]?.some((t) => tagsAny.has(t)) ?? false);
  }

  clear(): void {
    this.slotOf.clear();
    this.postings.clear();
    this.ids = [];
    this.lexemes = [];
    this.tags = [];
    this.free.length = 0;
  }

  private grow(min: number): void {
    let n = this.dims.length;
    while (n < min) n *= 2;
    const widen = <A extends Int32Array | Uint8Array | Float64Array>(a: A, make: (n: number) => A): A => {
      const b = make(n);
      b.set(a);
      return b;
    };
    this.dims = widen(this.dims, (k) => new Int32Array(k));
    this.tiers = widen(this.tiers, (k) => new Uint8Array(k));
    this.live = widen(this.live, (k) => new Uint8Array(k));
    this.expiresAt = widen(this.expiresAt, (k) => new Float64Array(k));
    this.seenBy = widen(this.seenBy, (k) => new Float64Array(k));
    this.termMask = widen(this.termMask, (k) => new Int32Array(k));
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
  /** Only memories carrying one of these tags. */
  tagsAny?: string[];
}

type Row = {
  id: string;
  tier: Tier;
  dim: number;
  live: boolean;
  expires_at: string | Date | null;
  lexemes: string[];
  tags: string[] | null;
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
  /** Number of the current `search`, stamped on the memories it visits. */
  private searches = 0;

  /** The database session (the PGlite instance) the index listens on; recall prepares its statement there. */
  readonly session: object;

  private constructor(client: ListeningClient) {
    this.session = client;
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
    for (const id of ids) await database.withTenant(id, (tx) => this.sync(tx));
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
  private async sync(tx: TenantTx): Promise<PartitionIndex> {
    const { tenantId } = tx;
    let p = this.partitions.get(tenantId);
    if (!p) this.partitions.set(tenantId, (p = new PartitionIndex()));
    if (p.pending === 'all') {
      p.pending = new Set();
      const rows = await selectRows(tx, undefined);
      p.clear();
      for (const r of rows) p.put(toIndexed(r), r.lexemes);
    } else if (p.pending.size) {
      const ids = [...p.pending];
      p.pending = new Set();
      const rows = await selectRows(tx, ids);
      for (const id of ids) p.remove(id);
      for (const r of rows) p.put(toIndexed(r), r.lexemes);
    }
    return p;
  }

  /**
   * The query's terms weighted as `TermStats.weigh` does (BM25 IDF over every memory of the partition, document
   * frequencies capped alike), from exact, current counts.
   */
  async weigh(tx: TenantTx, lexemes: string[]): Promise<WeightedTerm[]> {
    const p = await this.sync(tx);
    const n = Math.max(p.size, 1);
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
    const pool = Math.max(0, scope.pool);
    if (!p || pool === 0) return [];
    const nowMs = scope.now.getTime();
    const tiers = new Uint8Array(TIER_CODES.length);
    for (const t of scope.tiers) if (TIER_CODES.includes(t)) tiers[TIER_CODES.indexOf(t)] = 1;
    const tagsAny = scope.tagsAny?.length ? new Set(scope.tagsAny) : undefined;
    // One pass over the postings of the filtering terms, without a set or map per search: each slot is stamped
    // with this search's number and collects, as bits, which terms its memory holds (terms are at most 32, see
    // usableLexemes); its score is then computed from the bits, adding the IDFs in term order as `score` does.
    const search = ++this.searches;
    const { seenBy, termMask } = p;
    const found: number[] = [];
    const n = Math.min(terms.length, 32);
    for (let i = 0; i < n; i++) {
      const t = terms[i];
      if (!t.filter) continue;
      const posting = p.postings.get(t.lexeme);
      if (!posting) continue;
      const bit = 1 << i;
      const slots = posting.slots;
      for (let k = 0; k < posting.size; k++) {
        const slot = slots[k];
        if (seenBy[slot] !== search) {
          seenBy[slot] = search;
          if (p.inScope(slot, scope.dim, tiers, nowMs, tagsAny)) {
            termMask[slot] = 0;
            found.push(slot);
          } else termMask[slot] = -1;
        }
        if (termMask[slot] !== -1) termMask[slot] |= bit;
      }
    }
    // Terms too common to filter on still score: only the memories found are looked up in their postings.
    for (let i = 0; i < n; i++) {
      const t = terms[i];
      if (t.filter) continue;
      const posting = p.postings.get(t.lexeme);
      if (!posting) continue;
      const bit = 1 << i;
      for (const slot of found) if (find(posting, slot) >= 0) termMask[slot] |= bit;
    }
    const scoreOf = maskScorer(terms, n);
    const scored = found.map((slot) => ({ id: p.id(slot), score: scoreOf(termMask[slot]) }));
    const top = bestFirst(scored, pool);
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
    const slot = p.slot(id);
    if (slot === undefined) return 0;
    let matched = 0;
    for (const t of terms) if (p.contains(slot, t.lexeme)) matched += t.idf;
    return matched / total;
  }
}

/** The part of the PGlite client the index uses. */
interface ListeningClient {
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
}

async function selectRows(tx: TenantTx, ids: string[] | undefined): Promise<Row[]> {
  const only = ids === undefined ? sql`` : sql`and m.id = any(${sqlArray(ids, 'text')})`;
  const r = await tx.execute<Row>(sql`
    select m.id, m.tier, m.dim, (${recallableBeforeExpiry()}) as live,
           m.expires_at, coalesce(tsvector_to_array(m.tsv), '{}') as lexemes, m.tags
    from memories m where m.tenant_id = ${tx.tenantId} ${only}`);
  return r.rows;
}

function toIndexed(r: Row): IndexedMemory {
  return {
    id: r.id,
    tier: r.tier,
    dim: Number(r.dim),
    live: r.live,
    expiresAt: r.expires_at === null ? null : new Date(r.expires_at).getTime(),
    tags: r.tags ?? [],
  };
}

/**
 * The lexical score of a set of held terms (bit i = term i), as `LexicalIndex.score` computes it: the IDFs of the
 * held terms added in term order, over the sum of all IDFs; memoised per set (a query has few distinct ones).
 */
function maskScorer(terms: WeightedTerm[], n: number): (mask: number) => number {
  let total = 0;
  for (const t of terms) total += t.idf;
  const memo = new Map<number, number>();
  return (mask) => {
    if (!(total > 0)) return 0;
    let score = memo.get(mask);
    if (score === undefined) {
      let matched = 0;
      for (let i = 0; i < n; i++) if ((mask >>> i) & 1) matched += terms[i].idf;
      score = matched / total;
      memo.set(mask, score);
    }
    return score;
  };
}

const byScoreThenId = (a: { id: string; score: number }, b: { id: string; score: number }) =>
  b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The first `pool` candidates in (score descending, id ascending) order, without sorting all of them: the scores
 * are sorted as numbers to find the cut score, everything above it is sorted, and of the candidates at the cut
 * score (often most of them: queries have few distinct scores) only the smallest ids are kept.
 */
export function bestFirst<T extends { id: string; score: number }>(found: T[], pool: number): T[] {
  if (found.length <= pool) return found.sort(byScoreThenId);
  const scores = Float64Array.from(found, (c) => c.score).sort();
  const cut = scores[scores.length - pool];
  const above: T[] = [];
  const atCut: T[] = [];
  for (const c of found) {
    if (c.score > cut) above.push(c);
    else if (c.score === cut) atCut.push(c);
  }
  above.sort(byScoreThenId);
  const need = pool - above.length;
  // The `need` smallest ids at the cut score, kept sorted by insertion (need <= pool, a few hundred at most).
  const kept: T[] = [];
  for (const c of atCut) {
    if (kept.length === need && !(c.id < kept[need - 1].id)) continue;
    let lo = 0;
    let hi = kept.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (kept[mid].id < c.id) lo = mid + 1;
      else hi = mid;
    }
    kept.splice(lo, 0, c);
    if (kept.length > need) kept.pop();
  }
  return above.concat(kept);
}
