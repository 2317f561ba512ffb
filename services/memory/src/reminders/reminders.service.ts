import { randomUUID } from 'node:crypto';
import type { ReminderRequest } from '@care/contracts';
import type { MemoryContext } from '../memories/memory-context';
import { writableSpace } from '../partitions/partition-space';
import { insertReminder, listReminders, type ReminderRow } from './reminders.repository';

/** The `tags` field of a reminder is one string: a comma-separated list. */
export function parseReminderTags(tags: string | undefined): string[] {
  return [
    ...new Set(
      (tags ?? '')
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ];
}

/** The JSON view of a reminder. */
export function reminderView(r: ReminderRow): Record<string, unknown> {
  return {
    id: r.id,
    text: r.text,
    tags: r.tags,
    state: r.state,
    dueAt: r.dueAt.toISOString(),
    createdAt: r.createdAt.toISOString(),
    firedAt: r.firedAt?.toISOString() ?? null,
    memoryId: r.memoryId,
  };
}

/** Schedules and lists reminders; firing is {@link ReminderScheduler}'s job. */
export class RemindersService {
  constructor(private readonly ctx: MemoryContext) {}

  /** Stores a durable pending reminder due in `delaySeconds`; its vector is computed now (503 if the provider is down). */
  async schedule(tenantId: string, body: ReminderRequest): Promise<Record<string, unknown>> {
    const dimension = await this.ctx.embeddings.dimension();
    const [embedding] = await this.ctx.embeddings.embed([body.text]);
    await this.ctx.indexes.ensure(dimension);
    const now = this.ctx.clock();
    const row = await this.ctx.database.withTenant(tenantId, async (tx) => {
      await writableSpace(tx, tenantId, this.ctx.embeddings, dimension, now);
      return insertReminder(tx, {
        tenantId,
        id: randomUUID(),
        text: body.text,
        tags: parseReminderTags(body.tags),
        embedding,
        dueAt: new Date(now.getTime() + body.delaySeconds * 1000),
        createdAt: now,
      });
    });
    return reminderView(row);
  }

  /** The partition's reminders with their state, soonest due first. */
  async list(tenantId: string): Promise<Record<string, unknown>> {
    const rows = await this.ctx.database.withTenant(tenantId, (tx) => listReminders(tx, tenantId));
    return { partition: tenantId, reminders: rows.map(reminderView) };
  }
}
