import { Router } from 'express';
import { Counter, Gauge, type Registry } from 'prom-client';
import { PROMETHEUS_PATH, prometheusHandler } from '@care/service-kit';
import type { AppDeps } from '../app';

/** Whether `/actuator/prometheus` is served on the API port: metrics on, dev, and no MANAGEMENT_PORT (ADR 0012). */
export function servesPrometheus(deps: Pick<AppDeps, 'metrics' | 'config'>): boolean {
  return Boolean(
    deps.metrics && deps.config.MANAGEMENT_PORT === undefined && deps.config.APP_PROFILES_ACTIVE === 'dev',
  );
}

/** `GET /actuator/prometheus` on the API port when {@link servesPrometheus}; otherwise on MANAGEMENT_PORT or nowhere. */
export function metricsRoutes(deps: Pick<AppDeps, 'metrics' | 'config'>): Router {
  const router = Router();
  if (deps.metrics && servesPrometheus(deps))
    router.get(PROMETHEUS_PATH, prometheusHandler(deps.metrics.registry));
  return router;
}

/** care-consult's own Prometheus metrics, next to service-kit's HTTP RED histogram (ADR 0012). */
export interface CareConsultMetrics {
  /** `care_consult_chat_streams_open`: chat SSE streams currently open. */
  streamsOpen: Gauge;
  /** `care_consult_chat_refusals_total{category}`: safety refusals by red-flag category. */
  refusals: Counter<'category'>;
  /** `care_consult_relay_outcomes_total{operation,outcome,code}`: relay ticket issues and callbacks. */
  relayOutcomes: Counter<'operation' | 'outcome' | 'code'>;
}

/** Registers care-consult's metrics on the app's registry. */
export function createCareConsultMetrics(registry: Registry): CareConsultMetrics {
  return {
    streamsOpen: new Gauge({
      name: 'care_consult_chat_streams_open',
      help: 'Chat Server-Sent Event streams currently open',
      registers: [registry],
    }),
    refusals: new Counter({
      name: 'care_consult_chat_refusals_total',
      help: 'Chat turns refused by the safety check, by red-flag category',
      labelNames: ['category'] as const,
      registers: [registry],
    }),
    relayOutcomes: new Counter({
      name: 'care_consult_relay_outcomes_total',
      help: 'Relay operations (issue, resolve) by outcome (success, rejected, error) and problem code',
      labelNames: ['operation', 'outcome', 'code'] as const,
      registers: [registry],
    }),
  };
}

/**
 * Runs one relay operation and counts how it ended: `success`, `rejected` (a 4xx problem such as an expired or
 * replayed ticket, by its bounded code) or `error` (5xx). The code set is the relay's own, so cardinality stays low.
 */
export async function countRelay<T>(
  metrics: CareConsultMetrics | undefined,
  operation: 'issue' | 'resolve',
  run: () => T | Promise<T>,
): Promise<T> {
  try {
    const result = await run();
    metrics?.relayOutcomes.inc({ operation, outcome: 'success', code: '' });
    return result;
  } catch (err) {
    const e = err as { status?: number; code?: unknown };
    const code = typeof e.code === 'string' && /^[A-Z0-9_]{1,64}$/.test(e.code) ? e.code : 'INTERNAL';
    const outcome = typeof e.status === 'number' && e.status < 500 ? 'rejected' : 'error';
    metrics?.relayOutcomes.inc({ operation, outcome, code });
    throw err;
  }
}
