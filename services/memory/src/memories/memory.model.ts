// The memory record as the service sees it, its state and its public view. No I/O here.
import type { MemoryView } from '@care/contracts';

/** The four memory tiers. */
export const TIERS = ['working', 'episodic', 'semantic', 'documents'] as const;
/** A memory tier. */
export type Tier = (typeof TIERS)[number];

/** A stored memory without its vector. */
export interface MemoryRow {
  tenantId: string;
  id: string;
  tier: Tier;
  type: string;
  source: string;
  text: string;
  tags: string[];
  dim: number;
  strength: number;
  positiveCount: number;
  negativeCount: number;
  createdAt: Date;
  updatedAt: Date;
  suppressedAt: Date | null;
  resolvedAt: Date | null;
  forgottenAt: Date | null;
  expiresAt: Date | null;
  mergedInto: string | null;
  mergedAt: Date | null;
  consolidatedInto: string | null;
  decayedAt: Date | null;
  accessCount: number;
  lastAccessedAt: Date | null;
}

/** Lifecycle state, most final first: a forgotten memory is FORGOTTEN whatever else is set. */
export type MemoryState = 'FORGOTTEN' | 'MERGED' | 'EXPIRED' | 'SUPPRESSED' | 'ACTIVE';

/** The state of a memory at `now`. Only ACTIVE memories can be recalled. */
export function memoryState(
  m: Pick<MemoryRow, 'forgottenAt' | 'mergedInto' | 'expiresAt' | 'suppressedAt'>,
  now: Date,
): MemoryState {
  if (m.forgottenAt) return 'FORGOTTEN';
  if (m.mergedInto) return 'MERGED';
  if (m.expiresAt && m.expiresAt.getTime() <= now.getTime()) return 'EXPIRED';
  if (m.suppressedAt) return 'SUPPRESSED';
  return 'ACTIVE';
}

/** The tier a remembered memory goes to, by its type. */
export function tierOfType(type: string): Tier {
  if (type === 'EPISODIC') return 'episodic';
  if (type === 'WORKING') return 'working';
  return 'semantic'; // SEMANTIC and PROCEDURAL are long-term knowledge
}

/** Strength after a reinforcement: approaches 1 (positive) or 0 (negative) geometrically, never leaves [0, 1]. */
export function reinforcedStrength(strength: number, outcome: 'POSITIVE' | 'NEGATIVE', weight = 1): number {
  const step = 1 - Math.exp(-0.25 * weight);
  const s = Math.min(1, Math.max(0, strength));
  return outcome === 'POSITIVE' ? s + (1 - s) * step : s * (1 - step);
}

/** A provenance link of a memory, seen from that memory. */
export interface LinkView {
  relation: string;
  /** `outgoing`: this memory points at `id` (e.g. DERIVED_FROM a source); `incoming`: `id` points here. */
  direction: 'outgoing' | 'incoming';
  id: string;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The JSON view of a memory (GET /api/v1/memory/{id} and the answers of the write operations). */
export function memoryView(m: MemoryRow, now: Date, links?: LinkView[]): MemoryView {
  return {
    id: m.id,
    text: m.text,
    type: m.type,
    source: m.source,
    tier: m.tier,
    tags: m.tags,
    state: memoryState(m, now),
    suppressed: m.suppressedAt !== null,
    resolved: m.resolvedAt !== null,
    forgotten: m.forgottenAt !== null,
    strength: m.strength,
    reinforcement: { positive: m.positiveCount, negative: m.negativeCount },
    access: { count: m.accessCount, lastAccessedAt: iso(m.lastAccessedAt) },
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
    suppressedAt: iso(m.suppressedAt),
    resolvedAt: iso(m.resolvedAt),
    forgottenAt: iso(m.forgottenAt),
    expiresAt: iso(m.expiresAt),
    mergedInto: m.mergedInto,
    consolidatedInto: m.consolidatedInto,
    ...(links ? { links } : {}),
  };
}
