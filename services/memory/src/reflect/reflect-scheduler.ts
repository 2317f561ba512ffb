import type { Database } from '@care/db';
import type { Logger } from '@care/service-kit';
import { findPartition, listPartitionIds } from '../partitions/partitions.repository';
import type { ReflectService } from './reflect.service';

/**
 * Periodic consolidation: every `intervalSeconds`, reflects each partition whose last run is older than half
 * the interval (so replicas sharing a database do not repeat each other's work; the advisory lock keeps two
 * runs of one partition apart).
 */
export class ReflectScheduler {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly options: {
      database: Database;
      reflect: ReflectService;
      clock: () => Date;
      logger: Logger;
      intervalSeconds: number;
    },
  ) {}

  /** One pass over every partition that is due; returns how many were consolidated. */
  async runOnce(): Promise<number> {
    const { database, reflect, clock, logger, intervalSeconds } = this.options;
    const ids = await database.withSystem((tx) => listPartitionIds(tx));
    let count = 0;
    for (const id of ids) {
      const partition = await database.withTenant(id, (tx) => findPartition(tx));
      const last = partition?.lastReflectAt?.getTime() ?? 0;
      if (clock().getTime() - last < (intervalSeconds * 1000) / 2) continue;
      try {
        const report = await reflect.reflect(id, 'periodic');
        if (!report.skipped) count++;
        logger.info(
          {
            partition: id,
            merged: report.merged.length,
            promoted: report.promoted.length,
            decayed: report.decayed.length,
            expired: report.expired.length,
          },
          'periodic consolidation done',
        );
      } catch (err) {
        logger.warn({ err, partition: id }, 'periodic consolidation failed');
      }
    }
    return count;
  }

  /** Starts the periodic runs (the first one after one interval). */
  start(): void {
    if (this.options.intervalSeconds <= 0 || this.timer) return;
    this.timer = setInterval(() => {
      if (this.running) return; // the previous pass is still going
      this.running = this.runOnce()
        .then(() => undefined)
        .catch((err) => this.options.logger.warn({ err }, 'periodic consolidation failed'))
        .finally(() => (this.running = undefined));
    }, this.options.intervalSeconds * 1000);
    this.timer.unref();
  }

  /** Stops the timer and waits for a pass in progress. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
