import type { Registry } from 'prom-client';
import type { ActuatorMetric, Static } from '@care/contracts';

/** Spring Boot's `/actuator/metrics/{name}` body. */
type MetricView = Static<typeof ActuatorMetric>;

interface Sample {
  value: number;
  labels: Record<string, string | number>;
  metricName?: string;
}

/** Names of every registered metric, sorted. */
export async function metricNames(registry: Registry): Promise<string[]> {
  return (await registry.getMetricsAsJSON()).map((m) => m.name).sort();
}

/**
 * One metric in Spring's shape, optionally narrowed by `tag=key:value` filters: counters and gauges give
 * COUNT / VALUE, histograms and summaries COUNT and TOTAL (TOTAL_TIME for seconds). Undefined when unknown.
 */
export async function metricView(
  registry: Registry,
  name: string,
  tags: [string, string][],
): Promise<MetricView | undefined> {
  // Own names only: a name like `__proto__` must be "not found", never the registry's prototype (ADR 0005).
  if (!registry.getMetricsAsArray().some((m) => m.name === name)) return undefined;
  const metric = registry.getSingleMetric(name);
  if (!metric) return undefined;
  const data = (await metric.get()) as unknown as { help: string; type: string; values: Sample[] };
  const matches = (s: Sample) => tags.every(([k, v]) => String(s.labels[k]) === v);
  const values = data.values.filter(matches);
  const tagValues = new Map<string, Set<string>>();
  for (const s of data.values) {
    for (const [k, v] of Object.entries(s.labels)) {
      if (k === 'le' || k === 'quantile' || tags.some(([t]) => t === k)) continue;
      if (!tagValues.has(k)) tagValues.set(k, new Set());
      tagValues.get(k)!.add(String(v));
    }
  }
  const sum = (pred: (s: Sample) => boolean) => values.filter(pred).reduce((a, s) => a + s.value, 0);
  const seconds = name.endsWith('_seconds');
  let measurements: MetricView['measurements'];
  if (data.type === 'histogram' || data.type === 'summary') {
    measurements = [
      { statistic: 'COUNT', value: sum((s) => s.metricName === `${name}_count`) },
      { statistic: seconds ? 'TOTAL_TIME' : 'TOTAL', value: sum((s) => s.metricName === `${name}_sum`) },
    ];
  } else {
    measurements = [{ statistic: data.type === 'counter' ? 'COUNT' : 'VALUE', value: sum(() => true) }];
  }
  return {
    name,
    description: data.help,
    baseUnit: seconds ? 'seconds' : name.endsWith('_bytes') ? 'bytes' : null,
    measurements,
    availableTags: [...tagValues.entries()].map(([tag, v]) => ({ tag, values: [...v].sort() })),
  };
}
