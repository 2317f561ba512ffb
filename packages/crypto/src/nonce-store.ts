import { RelayError } from './relay-error';

/** The set of consumed nonces supplied by the caller of resolveRelayTicket. */
export interface NonceStore {
  /**
   * Records a nonce until `expiresAtSec` (UNIX seconds) has passed. Resolves true when this is its first use
   * (and it is now recorded), false when it was already used. Must be atomic across every process sharing it.
   */
  consume(nonce: string, expiresAtSec: number): Promise<boolean>;
}

/** Options of the in-process store. */
export interface InMemoryNonceStoreOptions {
  /** Hard cap on live entries (default 100 000). */
  maxEntries?: number;
  /** Current time in milliseconds (default Date.now). */
  now?: () => number;
}

/** Default cap: 100 000 live nonces is about 830 resolutions per second sustained at the 120 s maximum ttl. */
export const DEFAULT_MAX_NONCE_ENTRIES = 100_000;

/**
 * Single-process nonce store. Each entry is kept until its expiry second has passed, then dropped (a min-heap on
 * expiry makes each drop O(log n)). Growth is bounded: when `maxEntries` live (unexpired) nonces are held, a new
 * nonce is refused with RelayError RELAY_NONCE_STORE_FULL rather than evicting a live entry, because eviction would
 * let that ticket be replayed. Refusing fails closed: the resolution is rejected, nothing is redirected.
 * Use RedisNonceStore when more than one process resolves tickets.
 */
export class InMemoryNonceStore implements NonceStore {
  private readonly expiries = new Map<string, number>();
  private readonly heap: Array<[number, string]> = [];
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(options: InMemoryNonceStoreOptions = {}) {
    this.maxEntries = options.maxEntries ?? DEFAULT_MAX_NONCE_ENTRIES;
    this.now = options.now ?? Date.now;
    if (!Number.isSafeInteger(this.maxEntries) || this.maxEntries < 1) {
      throw new RangeError('maxEntries must be a positive integer');
    }
  }

  /** Number of nonces currently recorded (expired ones may remain until the next consume). */
  get size(): number {
    return this.expiries.size;
  }

  /** See {@link NonceStore.consume}. Throws RELAY_NONCE_STORE_FULL when the cap of live entries is reached. */
  async consume(nonce: string, expiresAtSec: number): Promise<boolean> {
    if (typeof nonce !== 'string' || nonce.length === 0 || !Number.isSafeInteger(expiresAtSec)) {
      throw new TypeError('consume needs a non-empty nonce and an integer expiry');
    }
    this.prune(this.now());
    const known = this.expiries.get(nonce);
    if (known !== undefined) return false;
    if (this.expiries.size >= this.maxEntries) {
      throw new RelayError('RELAY_NONCE_STORE_FULL', 'too many relay tickets in flight; try again shortly');
    }
    this.expiries.set(nonce, expiresAtSec);
    this.push([expiresAtSec, nonce]);
    return true;
  }

  // Drops entries whose expiry second is over: a ticket is accepted up to and including its `exp` instant.
  private prune(nowMs: number): void {
    const heap = this.heap;
    while (heap.length > 0 && heap[0][0] * 1000 < nowMs) {
      const [, nonce] = this.pop();
      this.expiries.delete(nonce);
    }
  }

  private push(item: [number, string]): void {
    const heap = this.heap;
    heap.push(item);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent][0] <= heap[i][0]) break;
      [heap[parent], heap[i]] = [heap[i], heap[parent]];
      i = parent;
    }
  }

  private pop(): [number, string] {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && heap[l][0] < heap[m][0]) m = l;
        if (r < heap.length && heap[r][0] < heap[m][0]) m = r;
        if (m === i) break;
        [heap[m], heap[i]] = [heap[i], heap[m]];
        i = m;
      }
    }
    return top;
  }
}
