import { Counter, type Registry } from 'prom-client';

/** Counters of authentication outcomes (exposed at /actuator/metrics and /actuator/prometheus). */
export class AuthMetrics {
  private readonly logins: Counter<'outcome'>;
  private readonly refreshes: Counter<'outcome'>;

  /** Registers the counters on the app's registry, every outcome at 0. */
  constructor(registry: Registry) {
    this.logins = new Counter({
      name: 'auth_login_total',
      help: 'Login attempts by outcome',
      labelNames: ['outcome'] as const,
      registers: [registry],
    });
    this.refreshes = new Counter({
      name: 'auth_refresh_total',
      help: 'Refresh attempts by outcome',
      labelNames: ['outcome'] as const,
      registers: [registry],
    });
    for (const o of ['success', 'failure', 'throttled']) this.logins.inc({ outcome: o }, 0);
    for (const o of ['success', 'reused', 'invalid', 'gone']) this.refreshes.inc({ outcome: o }, 0);
  }

  login(outcome: 'success' | 'failure' | 'throttled'): void {
    this.logins.inc({ outcome });
  }

  refresh(outcome: 'success' | 'reused' | 'invalid' | 'gone'): void {
    this.refreshes.inc({ outcome });
  }
}
