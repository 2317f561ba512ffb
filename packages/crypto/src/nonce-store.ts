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
const DEFAULT_MAX_NONCE_ENTRIES = 100_000;

// Value of each lowercase hex digit by character code, -1 for every other code below 128.
const HEX_VALUE = new Int8Array(128).fill(-1);
for (let d = 0; d < 16; d++) HEX_VALUE['0123456789abcdef'.charCodeAt(d)] = d;

const NONCE_HEX_LENGTH = 32;
const WORDS = 4; // a nonce is 128 bits: four 32-bit words
const INITIAL_SLOTS = 1024;

// Slot of a key in a table of `mask + 1` slots. Nonces are CSPRNG output, so any bits would do; mixing all four words
// keeps probe runs short even for keys that share some words.
function home(a: number, b: number, c: number, d: number, mask: number): number {
  return (a ^ Math.imul(b, 0x9e3779b1) ^ Math.imul(c, 0x85ebca6b) ^ Math.imul(d, 0xc2b2ae35)) & mask;
}

/**
 * Single-process nonce store. Each entry is kept until its expiry second has passed, then dropped (a min-heap on
 * expiry makes each drop O(log n)). Growth is bounded: when `maxEntries` live (unexpired) nonces are held, a new
 * nonce is refused with RelayError RELAY_NONCE_STORE_FULL rather than evicting a live entry, because eviction would
 * let that ticket be replayed. Refusing fails closed: the resolution is rejected, nothing is redirected.
 * Use RedisNonceStore when more than one process resolves tickets.
 *
 * Nonces are the protocol's 32 lowercase hex characters (the only form resolveRelayTicket passes on) and are held as
 * 128-bit numbers in typed arrays: an open-addressing table (linear probing, backward-shift deletion, doubled at half
 * load) and the expiry heap. No string or other object is kept per nonce, so a full store costs the garbage
 * collector nothing to trace or copy (a Set of strings did, measured at about a tenth of the resolution time), and
 * 100 000 entries take about 7 MB instead of about 30.
 */
export class InMemoryNonceStore implements NonceStore {
  private readonly maxEntries: number;
  private readonly now: () => number;
  // Hash table: WORDS words per slot, `used` marks occupied slots.
  private keys = new Int32Array(INITIAL_SLOTS * WORDS);
  private used = new Uint8Array(INITIAL_SLOTS);
  private mask = INITIAL_SLOTS - 1;
  private count = 0;
  // Min-heap on expiry second: `heapExpiry[i]` belongs to the key in `heapKeys[i * WORDS ...]`.
  private heapExpiry = new Float64Array(INITIAL_SLOTS);
  private heapKeys = new Int32Array(INITIAL_SLOTS * WORDS);
  private heapSize = 0;
  // The nonce under work, as four words.
  private readonly word = new Int32Array(WORDS);

  constructor(options: InMemoryNonceStoreOptions = {}) {
    this.maxEntries = options.maxEntries ?? DEFAULT_MAX_NONCE_ENTRIES;
    this.now = options.now ?? Date.now;
    if (!Number.isSafeInteger(this.maxEntries) || this.maxEntries < 1) {
      throw new RangeError('maxEntries must be a positive integer');
    }
  }

  /** Number of nonces currently recorded (expired ones may remain until the next consume). */
  get size(): number {
    return this.count;
  }

  /**
   * See {@link NonceStore.consume}; answers synchronously. Throws RELAY_NONCE_STORE_FULL when the cap of live
   * entries is reached, TypeError when the nonce is not 32 lowercase hex characters or the expiry not an integer.
   */
  consume(nonce: string, expiresAtSec: number): boolean {
    if (!this.readNonce(nonce) || !Number.isSafeInteger(expiresAtSec)) {
      throw new TypeError('consume needs a 32-lowercase-hex nonce and an integer expiry');
    }
    const w = this.word;
    const a = w[0];
    const b = w[1];
    const c = w[2];
    const d = w[3];
    // Drops entries whose expiry second is over: a ticket is accepted up to and including its `exp` instant.
    const nowMs = this.now();
    while (this.heapSize > 0 && this.heapExpiry[0] * 1000 < nowMs) this.dropEarliest();
    if (this.find(a, b, c, d) >= 0) return false;
    if (this.count >= this.maxEntries) {
      throw new RelayError('RELAY_NONCE_STORE_FULL', 'too many relay tickets in flight; try again shortly');
    }
    if ((this.count + 1) * 2 > this.used.length) this.resize(this.used.length * 2);
    this.insert(a, b, c, d);
    this.count++;
    this.heapPush(expiresAtSec, a, b, c, d);
    return true;
  }

  // Parses the nonce into this.word; false unless it is exactly 32 lowercase hex characters.
  private readNonce(nonce: unknown): boolean {
    if (typeof nonce !== 'string' || nonce.length !== NONCE_HEX_LENGTH) return false;
    for (let k = 0; k < WORDS; k++) {
      let value = 0;
      for (let i = k * 8; i < k * 8 + 8; i++) {
        const code = nonce.charCodeAt(i);
        const digit = code < 128 ? HEX_VALUE[code] : -1;
        if (digit < 0) return false;
        value = (value << 4) | digit;
      }
      this.word[k] = value;
    }
    return true;
  }

  // Slot holding the key, or -1.
  private find(a: number, b: number, c: number, d: number): number {
    const { keys, used, mask } = this;
    for (let i = home(a, b, c, d, mask); used[i] === 1; i = (i + 1) & mask) {
      const at = i * WORDS;
      if (keys[at] === a && keys[at + 1] === b && keys[at + 2] === c && keys[at + 3] === d) return i;
    }
    return -1;
  }

  // Puts a key known to be absent into the first free slot of its probe run.
  private insert(a: number, b: number, c: number, d: number): void {
    const { keys, used, mask } = this;
    let i = home(a, b, c, d, mask);
    while (used[i] === 1) i = (i + 1) & mask;
    const at = i * WORDS;
    keys[at] = a;
    keys[at + 1] = b;
    keys[at + 2] = c;
    keys[at + 3] = d;
    used[i] = 1;
  }

  // Removes a present key. Backward-shift deletion: later entries of the probe run move into the hole when their
  // home slot does not lie after it, so every key stays reachable from its home without tombstones.
  private remove(a: number, b: number, c: number, d: number): void {
    const { keys, used, mask } = this;
    let hole = this.find(a, b, c, d);
    if (hole < 0) return;
    used[hole] = 0;
    for (let j = (hole + 1) & mask; used[j] === 1; j = (j + 1) & mask) {
      const at = j * WORDS;
      const start = home(keys[at], keys[at + 1], keys[at + 2], keys[at + 3], mask);
      if (((j - start) & mask) < ((j - hole) & mask)) continue;
      keys.copyWithin(hole * WORDS, at, at + WORDS);
      used[hole] = 1;
      used[j] = 0;
      hole = j;
    }
    this.count--;
  }

  private resize(slots: number): void {
    const oldKeys = this.keys;
    const oldUsed = this.used;
    this.keys = new Int32Array(slots * WORDS);
    this.used = new Uint8Array(slots);
    this.mask = slots - 1;
    for (let i = 0; i < oldUsed.length; i++) {
      if (oldUsed[i] === 1) {
        const at = i * WORDS;
        this.insert(oldKeys[at], oldKeys[at + 1], oldKeys[at + 2], oldKeys[at + 3]);
      }
    }
  }

  private heapPush(expiry: number, a: number, b: number, c: number, d: number): void {
    if (this.heapSize === this.heapExpiry.length) {
      const expiries = new Float64Array(this.heapSize * 2);
      expiries.set(this.heapExpiry);
      const keys = new Int32Array(this.heapSize * 2 * WORDS);
      keys.set(this.heapKeys);
      this.heapExpiry = expiries;
      this.heapKeys = keys;
    }
    const exps = this.heapExpiry;
    const keys = this.heapKeys;
    let i = this.heapSize++;
    // Sift up by moving parents down into the hole, then write the new entry once.
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (exps[parent] <= expiry) break;
      exps[i] = exps[parent];
      keys.copyWithin(i * WORDS, parent * WORDS, parent * WORDS + WORDS);
      i = parent;
    }
    exps[i] = expiry;
    keys[i * WORDS] = a;
    keys[i * WORDS + 1] = b;
    keys[i * WORDS + 2] = c;
    keys[i * WORDS + 3] = d;
  }

  // Removes the earliest heap entry and its key from the table.
  private dropEarliest(): void {
    const exps = this.heapExpiry;
    const keys = this.heapKeys;
    this.remove(keys[0], keys[1], keys[2], keys[3]);
    const n = --this.heapSize;
    if (n === 0) return;
    // Sift the last entry down from the root by moving the smaller child up into the hole.
    const lastExpiry = exps[n];
    const last = n * WORDS;
    const la = keys[last];
    const lb = keys[last + 1];
    const lc = keys[last + 2];
    const ld = keys[last + 3];
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const m = l + 1 < n && exps[l + 1] < exps[l] ? l + 1 : l;
      if (exps[m] >= lastExpiry) break;
      exps[i] = exps[m];
      keys.copyWithin(i * WORDS, m * WORDS, m * WORDS + WORDS);
      i = m;
    }
    exps[i] = lastExpiry;
    keys[i * WORDS] = la;
    keys[i * WORDS + 1] = lb;
    keys[i * WORDS + 2] = lc;
    keys[i * WORDS + 3] = ld;
  }
}
