import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';
import { startManagementServer, type Logger, type ManagementServer } from '@care/service-kit';

/** Settings of {@link runClusterPrimary}. */
export interface ClusterPrimaryOptions {
  workers: number;
  logger: Logger;
  /** Port of the operators' listener; the primary serves it with every worker's metrics summed. */
  managementPort?: number;
}

/**
 * WEB_CONCURRENCY > 1 (ADR 0406): this process only supervises. It forks `workers` copies of the service, which
 * listen on PORT together (node:cluster hands each new connection to one of them), serves the management port
 * with the workers' metrics aggregated, replaces a worker that dies after it was serving, and on SIGTERM/SIGINT
 * passes the signal on and exits when every worker has finished its own graceful shutdown. A worker that dies
 * before it served (bad config, database unreachable) stops the whole service: restarting it would only loop.
 */
export async function runClusterPrimary(options: ClusterPrimaryOptions): Promise<void> {
  const { logger } = options;
  let stopping = false;
  const serving = new Set<number>();
  const fork = (): Worker => {
    const worker = cluster.fork();
    worker.once('listening', () => serving.add(worker.id));
    return worker;
  };
  cluster.on('exit', (worker, code, signal) => {
    const wasServing = serving.delete(worker.id);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        void management?.close().finally(() => process.exit(0));
      }
      return;
    }
    if (!wasServing) {
      logger.error(
        { pid: worker.process.pid, code, signal },
        'a worker stopped before it served; stopping the service',
      );
      stopping = true;
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
      void management?.close().finally(() => process.exit(1));
      return;
    }
    logger.error({ pid: worker.process.pid, code, signal }, 'a worker stopped; starting a replacement');
    fork();
  });
  const stop = (sig: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal: sig, workers: Object.keys(cluster.workers ?? {}).length }, 'stopping the workers');
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill(sig);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  let management: ManagementServer | undefined;
  if (options.managementPort !== undefined) {
    const aggregator = new AggregatorRegistry();
    // The management server asks only for `metrics()` and `contentType`; the aggregator's are the cluster's sums.
    const registry = {
      metrics: () => aggregator.clusterMetrics(),
      contentType: aggregator.contentType,
    } as unknown as Registry;
    management = await startManagementServer({ port: options.managementPort, registry, logger });
  }
  for (let i = 0; i < options.workers; i++) fork();
  logger.info({ workers: options.workers }, 'care-consult cluster started');
}

/** In a worker, answers the primary's metrics requests with this worker's registry. */
export function shareWorkerMetrics(registry: Registry): void {
  AggregatorRegistry.setRegistries([registry]);
}

/** True in a worker forked by {@link runClusterPrimary}. */
export function isClusterWorker(): boolean {
  return cluster.isWorker;
}
