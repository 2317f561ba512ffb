import { randomUUID } from 'node:crypto';
import type { ReminderList, ReminderRequest, ReminderView } from '@care/contracts';
import type { Database } from '@care/db';
import type { VectorIndexes } from '../db/vector-index';
import type { EmbeddingProvider } from '../embeddings/embedding-provider';
import { writableSpace } from '../partitions/partition-space';
import { insertReminder, listReminders, type ReminderRow } from './reminders.repository';

/** The `tags` field of a reminder is one string: a comma-separated list. */
function parseReminderTags(tags: string | undefined): string[] {
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
function reminderView(r: ReminderRow): ReminderView {
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
  constructor(
    private readonly deps: {
      database: Database;
      embeddings: EmbeddingProvider;
      indexes: VectorIndexes;
      clock: () => Date;
    },
  ) {}

  /** Stores a durable pending reminder due in `delaySeconds`; its vector is computed now (503 if the provider is down). */
  async schedule(tenantId: string, body: ReminderRequest): Promise<ReminderView> {
    const dimension = await this.deps.embeddings.dimension();
    const [embedding] = await this.deps.embeddings.embed([body.text]);
    await this.deps.indexes.ensure(dimension);
    const now = this.deps.clock();
    const row = await this.deps.database.withTenant(tenantId, async (tx) => {
      await writableSpace(tx, this.deps.embeddings, dimension, now);
      return insertReminder(tx, {
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
  async list(tenantId: string): Promise<ReminderList> {
    const rows = await this.deps.database.withTenant(tenantId, (tx) => listReminders(tx));
    return { partition: tenantId, reminders: rows.map(reminderView) };
  }
}
