import fc from 'fast-check';
import { InMemoryNonceStore, RelayError } from '../src';

function clock(startMs: number) {
  let now = startMs;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

// A protocol nonce (32 lowercase hex characters) made from a small number, readable in tests.
const nonce = (id: number | string) => String(id).padStart(32, '0');

describe('InMemoryNonceStore', () => {
  it('accepts a nonce once and refuses it while it has not expired', () => {
    const c = clock(1_000_000);
    const store = new InMemoryNonceStore({ now: c.now });
    expect(store.consume(nonce(1), 1_060)).toBe(true);
    c.advance(60_000); // exactly the expiry instant: still live
    expect(store.consume(nonce(1), 1_060)).toBe(false);
  });

  it('drops an entry once its expiry second has passed', () => {
    const c = clock(1_000_000);
    const store = new InMemoryNonceStore({ now: c.now });
    store.consume(nonce(1), 1_010);
    store.consume(nonce(2), 1_100);
    c.advance(10_001);
    expect(store.consume(nonce(3), 1_100)).toBe(true);
    expect(store.size).toBe(2);
    expect(store.consume(nonce(1), 1_100)).toBe(true); // expired, so new again
  });

  it('refuses a new nonce with RELAY_NONCE_STORE_FULL at the cap instead of evicting a live one', () => {
    const c = clock(1_000_000);
    const store = new InMemoryNonceStore({ maxEntries: 3, now: c.now });
    for (const n of ['a', 'b', 'c']) expect(store.consume(nonce(n), 1_120)).toBe(true);
    expect(() => store.consume(nonce('d'), 1_120)).toThrow(
      expect.objectContaining({ code: 'RELAY_NONCE_STORE_FULL' }),
    );
    expect(() => store.consume(nonce('d'), 1_120)).toThrow(RelayError);
    expect(store.consume(nonce('a'), 1_120)).toBe(false); // a live entry was not evicted
    c.advance(120_001);
    expect(store.consume(nonce('d'), 1_240)).toBe(true);
    expect(store.size).toBe(1);
  });

  it('tells apart nonces that differ in one digit of any word', () => {
    const store = new InMemoryNonceStore({ now: () => 0 });
    const base = '0123456789abcdef0123456789abcdef';
    expect(store.consume(base, 10)).toBe(true);
    for (let i = 0; i < 32; i++) {
      const other = `${base.slice(0, i)}${base[i] === 'f' ? 'e' : 'f'}${base.slice(i + 1)}`;
      expect(store.consume(other, 10)).toBe(true);
      expect(store.consume(other, 10)).toBe(false);
    }
    expect(store.consume(base, 10)).toBe(false);
    expect(store.size).toBe(33);
  });

  // Small word alphabets make many keys share words and home slots, so probe runs, backward-shift deletion, table
  // growth and the heap are all exercised; the model is a plain Map of live nonces.
  const word = fc.constantFrom('00000000', 'ffffffff', '80000000', '7fffffff', '0000ffff', 'deadbeef');
  const anyNonce = fc.tuple(word, word, word, word).map((w) => w.join(''));
  it.each([
    ['a small cap', 16, 200, 3_000],
    ['growth past the first table', 5_000, 1_500, 100],
  ])('matches a model of live nonces for any sequence (%s)', (_name, cap, maxLength, maxStepMs) => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(anyNonce, fc.integer({ min: 0, max: maxStepMs }), fc.integer({ min: 1, max: 120 })),
          {
            minLength: maxLength / 2,
            maxLength,
          },
        ),
        (ops) => {
          const c = clock(5_000_000);
          const store = new InMemoryNonceStore({ maxEntries: cap, now: c.now });
          const live = new Map<string, number>();
          for (const [n, stepMs, ttl] of ops) {
            c.advance(stepMs);
            for (const [k, exp] of live) if (exp * 1000 < c.now()) live.delete(k);
            const exp = Math.floor(c.now() / 1000) + ttl;
            let result: boolean | string;
            try {
              result = store.consume(n, exp);
            } catch (e) {
              result = (e as RelayError).code;
            }
            if (live.has(n)) expect(result).toBe(false);
            else if (live.size >= cap) expect(result).toBe('RELAY_NONCE_STORE_FULL');
            else {
              expect(result).toBe(true);
              live.set(n, exp);
            }
            expect(store.size).toBe(live.size);
          }
          // Every live nonce is still found, however the table was reshuffled.
          for (const n of live.keys()) expect(store.consume(n, 0)).toBe(false);
        },
      ),
      { numRuns: cap > 100 ? 8 : 60 },
    );
  });

  it('keeps the cap and the single use across many random nonces and expiries', () => {
    const c = clock(1_000_000);
    const store = new InMemoryNonceStore({ maxEntries: 50_000, now: c.now });
    const seen: string[] = [];
    for (let i = 0; i < 5_000; i++) {
      const n = (i * 2654435761 + 12345).toString(16).padStart(32, '0').slice(-32);
      expect(store.consume(n, 1_000 + (i % 120) + 1)).toBe(true);
      seen.push(n);
    }
    for (const n of seen) expect(store.consume(n, 2_000)).toBe(false);
    c.advance(121_000); // all of them have expired
    expect(store.consume(seen[0], 2_000)).toBe(true);
    expect(store.size).toBe(1);
  });

  it('rejects invalid arguments and options', () => {
    const store = new InMemoryNonceStore();
    for (const bad of [
      '',
      'n',
      nonce(1).toUpperCase().replace('0', 'A'),
      `${nonce(1)}0`,
      nonce(1).slice(1),
      'g'.repeat(32),
      `${'0'.repeat(31)}\u0100`,
    ])
      expect(() => store.consume(bad, 1)).toThrow(TypeError);
    expect(() => store.consume(nonce(1), 1.5)).toThrow(TypeError);
    expect(() => new InMemoryNonceStore({ maxEntries: 0 })).toThrow(RangeError);
  });
});
