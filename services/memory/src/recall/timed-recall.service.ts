import { Histogram, type Registry } from 'prom-client';
import { RecallService, type RecallDeps } from './recall.service';

/** `memory_recall_duration_seconds{outcome}`: end-to-end recall time (embedding, search, fusion), ADR 0012. */
export function createRecallHistogram(registry: Registry): Histogram<'outcome'> {
  return new Histogram({
    name: 'memory_recall_duration_seconds',
    help: 'Duration of one recall (query embedding, candidate search, fusion) by outcome',
    labelNames: ['outcome'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
}

/** Recall that observes its own latency; the answer is the plain service's, unchanged. */
export class TimedRecallService extends RecallService {
  constructor(
    deps: RecallDeps,
    private readonly histogram: Histogram<'outcome'>,
  ) {
    super(deps);
  }

  /** Times the recall; `outcome` is `ok`, or `error` when it threw (provider down, bad input). */
  override async recall(...args: Parameters<RecallService['recall']>): ReturnType<RecallService['recall']> {
    const end = this.histogram.startTimer();
    try {
      const result = await super.recall(...args);
      end({ outcome: 'ok' });
      return result;
    } catch (err) {
      end({ outcome: 'error' });
      throw err;
    }
  }
}
