import type { EmbeddingProvider } from './embedding-provider';

/** Health of the provider as last seen: `CONFIGURED` until the first call, then `UP` or `DOWN`. */
export type ProviderStatus = 'CONFIGURED' | 'UP' | 'DOWN';

/** Wraps a provider to remember whether its last call worked (for the health endpoint, no extra calls). */
export class MonitoredEmbeddingProvider implements EmbeddingProvider {
  readonly kind: string;
  readonly model: string;
  readonly location: string;
  private state: ProviderStatus = 'CONFIGURED';

  constructor(private readonly inner: EmbeddingProvider) {
    this.kind = inner.kind;
    this.model = inner.model;
    this.location = inner.location;
  }

  /** The last seen status. */
  status(): ProviderStatus {
    return this.state;
  }

  dimension(): Promise<number> {
    // A known size proves nothing about the model answering: only failures count here.
    return this.track(() => this.inner.dimension(), false);
  }

  embed(texts: string[]): Promise<number[][]> {
    return this.track(() => this.inner.embed(texts));
  }

  private async track<T>(call: () => Promise<T>, successCounts = true): Promise<T> {
    try {
      const out = await call();
      if (successCounts) this.state = 'UP';
      return out;
    } catch (err) {
      this.state = 'DOWN';
      throw err;
    }
  }
}
