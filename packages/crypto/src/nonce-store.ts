import { RelayError } from './relay-error';

/** The set of consumed nonces supplied by the caller of resolveRelayTicket. */
export interface NonceStore {
  /**
   * Records a nonce until `expiresAtSec` (UNIX seconds) has passed. Gives true when this is its first use (and it is
   * now recorded), false when it was already used. Must be atomic across every process sharing it. A store that
   * can answer at once (in-process) returns the boolean itself, a remote one a promise; a fault is a throw or a
   * rejection.
   */
  consume(nonce: string, expiresAtSec: number): boolean | Promise<boolean>;
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
  // Recorded nonces (membership only) and a binary min-heap on expiry in two parallel arrays, so a record allocates
  // no tuple: `heapExpiry[i]` is the expiry second of `heapNonce[i]`.
  private readonly nonces = new Set<string>();
  private readonly heapExpiry: number[] = [];
  private readonly heapNonce: string[] = [];
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
    return this.nonces.size;
  }

  /**
   * See {@link NonceStore.consume}; answers synchronously. Throws RELAY_NONCE_STORE_FULL when the cap of live
   * entries is reached, TypeError on an empty nonce or a non-integer expiry.
   */
  consume(nonce: string, expiresAtSec: number): boolean {
    if (typeof nonce !== 'string' || nonce.length === 0 || !Number.isSafeInteger(expiresAtSec)) {
      throw new TypeError('consume needs a non-empty nonce and an integer expiry');
    }
    // Drops entries whose expiry second is over: a ticket is accepted up to and including its `exp` instant.
    const nowMs = this.now();
    while (this.heapExpiry.length > 0 && this.heapExpiry[0] * 1000 < nowMs) this.nonces.delete(this.pop());
    if (this.nonces.has(nonce)) return false;
    if (this.nonces.size >= this.maxEntries) {
      throw new RelayError('RELAY_NONCE_STORE_FULL', 'too many relay tickets in flight; try again shortly');
    }
    this.nonces.add(nonce);
    this.push(expiresAtSec, nonce);
    return true;
  }

  private push(expiry: number, nonce: string): void {
    const exps = this.heapExpiry;
    const nonces = this.heapNonce;
    let i = exps.length;
    // Sift up by moving parents down into the hole, then write the new entry once.
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (exps[parent] <= expiry) break;
      exps[i] = exps[parent];
      nonces[i] = nonces[parent];
      i = parent;
    }
    exps[i] = expiry;
    nonces[i] = nonce;
  }

  // Removes the earliest entry and returns its nonce.
  private pop(): string {
    const exps = this.heapExpiry;
    const nonces = this.heapNonce;
    const top = nonces[0];
    const lastExpiry = exps.pop()!;
    const lastNonce = nonces.pop()!;
    const n = exps.length;
    if (n === 0) return top;
    // Sift the last entry down from the root by moving the smaller child up into the hole.
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const m = l + 1 < n && exps[l + 1] < exps[l] ? l + 1 : l;
      if (exps[m] >= lastExpiry) break;
      exps[i] = exps[m];
      nonces[i] = nonces[m];
      i = m;
    }
    exps[i] = lastExpiry;
    nonces[i] = lastNonce;
    return top;
  }
}
