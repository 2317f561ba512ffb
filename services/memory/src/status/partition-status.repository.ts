import { sql } from 'drizzle-orm';
import type { TenantTx } from '@care/db';
import { keptCondition, recallableCondition, unexpiredCondition } from '../memories/memory.sql';

/** Memory counts of one tier by state. */
export interface TierCounts {
  tier: string;
  total: number;
  active: number;
  suppressed: number;
  forgotten: number;
  merged: number;
  expired: number;
  resolved: number;
}

/** Counts of the tenant's memories per tier and state (one scan of the tenant's rows). */
export async function countByTier(tx: TenantTx, now: Date): Promise<TierCounts[]> {
  const { tenantId } = tx;
  const kept = keptCondition();
  const unexpired = unexpiredCondition(now);
  const r = await tx.execute<Record<string, string | number>>(sql`
    select m.tier, count(*) as total,
      count(*) filter (where ${recallableCondition(now)}) as active,
      count(*) filter (where ${kept} and m.suppressed_at is not null and ${unexpired}) as suppressed,
      count(*) filter (where m.forgotten_at is not null) as forgotten,
      count(*) filter (where m.forgotten_at is null and m.merged_into is not null) as merged,
      count(*) filter (where ${kept} and m.expires_at <= ${now}) as expired,
      count(*) filter (where m.resolved_at is not null) as resolved
    from memories m where m.tenant_id = ${tenantId} group by m.tier`);
  return r.rows.map((x) => ({
    tier: String(x.tier),
    total: Number(x.total),
    active: Number(x.active),
    suppressed: Number(x.suppressed),
    forgotten: Number(x.forgotten),
    merged: Number(x.merged),
    expired: Number(x.expired),
    resolved: Number(x.resolved),
  }));
}

/** The tenant's reminders per state. */
export async function countReminders(tx: TenantTx): Promise<Record<string, number>> {
  const { tenantId } = tx;
  const r = await tx.execute<{ state: string; n: string | number }>(
    sql`select state, count(*) as n from reminders where tenant_id = ${tenantId} group by state`,
  );
  return Object.fromEntries(r.rows.map((x) => [x.state, Number(x.n)]));
}
