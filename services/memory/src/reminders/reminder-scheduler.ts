import type { Database } from '@care/db';
import type { Logger } from '@care/service-kit';
import { insertLinks, insertMemory } from '../memories/memories.repository';
import { claimDueReminders, markFired } from './reminders.repository';

/** The id of the memory a reminder becomes: derived from the reminder, so a second firing could not duplicate it. */
function reminderMemoryId(reminderId: string): string {
  return `reminder-${reminderId}`;
}

/** Settings of {@link ReminderScheduler}. */
export interface ReminderSchedulerOptions {
  database: Database;
  clock: () => Date;
  logger: Logger;
  /** Rows claimed per transaction. */
  batchSize?: number;
}

/**
 * Fires due reminders: each becomes an episodic memory (source SYSTEM, tag `reminder`, linked FIRED_FROM the
 * reminder) in the same transaction that marks it FIRED. Any number of replicas may run this loop on one
 * database: rows are claimed with `FOR UPDATE SKIP LOCKED`.
 */
export class ReminderScheduler {
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;
  private stopped = true;

  constructor(private readonly options: ReminderSchedulerOptions) {}

  /** Fires everything due now; returns how many reminders this call fired. */
  async tick(): Promise<number> {
    const batch = this.options.batchSize ?? 50;
    let fired = 0;
    for (;;) {
      const now = this.options.clock();
      const count = await this.options.database.withSystem(async (tx) => {
        const due = await claimDueReminders(tx, now, batch);
        for (const r of due) {
          const memoryId = reminderMemoryId(r.id);
          await insertMemory(tx, {
            tenantId: r.tenantId,
            id: memoryId,
            tier: 'episodic',
            type: 'EPISODIC',
            source: 'SYSTEM',
            text: r.text,
            tags: [...new Set([...r.tags, 'reminder'])],
            embedding: r.embedding,
            createdAt: now,
          });
          await insertLinks(
            tx,
            r.tenantId,
            [{ fromId: memoryId, relation: 'FIRED_FROM', toId: `reminder:${r.id}` }],
            now,
          );
          await markFired(tx, r.tenantId, r.id, memoryId, now);
        }
        return due.length;
      });
      fired += count;
      if (count < batch) return fired;
    }
  }

  /** Starts the loop (one tick at a time, every `intervalMs`). */
  start(intervalMs: number): void {
    if (intervalMs <= 0 || !this.stopped) return;
    this.stopped = false;
    const loop = () => {
      if (this.stopped) return;
      this.running = this.tick().catch((err) => {
        this.options.logger.warn({ err }, 'firing reminders failed; will retry');
        return 0;
      });
      void this.running.then(() => {
        if (!this.stopped) {
          this.timer = setTimeout(loop, intervalMs);
          this.timer.unref();
        }
      });
    };
    loop();
  }

  /** Stops the loop and waits for a tick in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
