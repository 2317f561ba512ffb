import { Counter, type Registry } from 'prom-client';

/** Counters of authentication outcomes (exposed at /actuator/metrics and /actuator/prometheus). */
export interface AuthMetrics {
  login(outcome: 'success' | 'failure' | 'throttled'): void;
  refresh(outcome: 'success' | 'reused' | 'invalid' | 'gone'): void;
}

/** Registers the counters on the app's registry. */
export function createAuthMetrics(registry: Registry): AuthMetrics {
  const logins = new Counter({ name: 'auth_login_total', help: 'Login attempts by outcome', labelNames: ['outcome'] as const, registers: [registry] });
  const refreshes = new Counter({ name: 'auth_refresh_total', help: 'Refresh attempts by outcome', labelNames: ['outcome'] as const, registers: [registry] });
  for (const o of ['success', 'failure', 'throttled']) logins.inc({ outcome: o }, 0);
  for (const o of ['success', 'reused', 'invalid', 'gone']) refreshes.inc({ outcome: o }, 0);
  return { login: (outcome) => logins.inc({ outcome }), refresh: (outcome) => refreshes.inc({ outcome }) };
}
