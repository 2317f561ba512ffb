/** Result of one component check. */
export interface ComponentHealth {
  status: 'UP' | 'DOWN';
  details?: Record<string, unknown>;
}

/** A component check: resolve with details (or nothing) when healthy, throw when not. */
export type HealthCheck = () => Promise<Record<string, unknown> | void>;

/** How a check takes part in the probes. */
export interface CheckOptions {
  timeoutMs?: number;
  /** Counted for readiness (default true). Liveness never runs component checks: it asks only about the process. */
  readiness?: boolean;
}

/** Overall report: `UP`, `DOWN`, or `OUT_OF_SERVICE` while draining. */
export interface HealthReport {
  status: 'UP' | 'DOWN' | 'OUT_OF_SERVICE';
  components: Record<string, ComponentHealth>;
}

/**
 * Collects component checks and composes liveness and readiness. Each check runs with its own timeout so
 * one hung dependency cannot hang the probe; readiness turns OUT_OF_SERVICE once draining starts.
 */
export class HealthRegistry {
  private readonly checks = new Map<string, { fn: HealthCheck; opts: Required<CheckOptions> }>();
  private draining = false;

  /** Adds a named component check. */
  register(name: string, fn: HealthCheck, opts: CheckOptions = {}): this {
    this.checks.set(name, {
      fn,
      opts: { timeoutMs: opts.timeoutMs ?? 2000, readiness: opts.readiness ?? true },
    });
    return this;
  }

  /** Marks the service as shutting down: readiness answers OUT_OF_SERVICE from now on. */
  setDraining(): void {
    this.draining = true;
  }

  /** Whether shutdown has begun. */
  isDraining(): boolean {
    return this.draining;
  }

  /** Liveness: the process answers; nothing external is consulted. */
  liveness(): HealthReport {
    return { status: 'UP', components: { process: { status: 'UP' } } };
  }

  /** Runs every check concurrently, each bounded by its timeout. */
  async readiness(): Promise<HealthReport> {
    const entries = await Promise.all(
      [...this.checks.entries()].map(
        async ([name, { fn, opts }]) => [name, await runCheck(fn, opts.timeoutMs), opts.readiness] as const,
      ),
    );
    const components: Record<string, ComponentHealth> = {};
    let down = false;
    for (const [name, result, counts] of entries) {
      components[name] = result;
      if (counts && result.status === 'DOWN') down = true;
    }
    const status = this.draining ? 'OUT_OF_SERVICE' : down ? 'DOWN' : 'UP';
    return { status, components };
  }
}

async function runCheck(fn: HealthCheck, timeoutMs: number): Promise<ComponentHealth> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
    });
    const details = await Promise.race([fn(), timeout]);
    return details ? { status: 'UP', details } : { status: 'UP' };
  } catch (err) {
    return { status: 'DOWN', details: { error: err instanceof Error ? err.message : String(err) } };
  } finally {
    clearTimeout(timer);
  }
}
