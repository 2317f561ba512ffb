import fc from 'fast-check';
import { InMemoryNonceStore, RelayError } from '../src';

function clock(startMs: number) {
  let now = startMs;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('InMemoryNonceStore', () => {
  it('accepts a nonce once and refuses it while it has not expired', () => {
    const c = clock(1_000_000);
    const store = new InMemoryNonceStore({ now: c.now });
    expect(store.consume('n1', 1_060)).toBe(true);
    c.advance(60_000); // exactly the expiry instant: still live
    expect(store.consume('n1', 1_060)).toBe(false);
  });

  it('drops an entry once its expiry second has passed', () => {
    const c = clock(1_000_000);
    const store = new InMemoryNonceStore({ now: c.now });
    store.consume('n1', 1_010);
    store.consume('n2', 1_100);
    c.advance(10_001);
    expect(store.consume('n3', 1_100)).toBe(true);
    expect(store.size).toBe(2);
  });

  it('refuses a new nonce with RELAY_NONCE_STORE_FULL at the cap instead of evicting a live one', () => {
    const c = clock(1_000_000);
    const store = new InMemoryNonceStore({ maxEntries: 3, now: c.now });
    for (const n of ['a', 'b', 'c']) expect(store.consume(n, 1_120)).toBe(true);
    expect(() => store.consume('d', 1_120)).toThrow(
      expect.objectContaining({ code: 'RELAY_NONCE_STORE_FULL' }),
    );
    expect(() => store.consume('d', 1_120)).toThrow(RelayError);
    expect(store.consume('a', 1_120)).toBe(false); // a live entry was not evicted
    c.advance(120_001);
    expect(store.consume('d', 1_240)).toBe(true);
    expect(store.size).toBe(1);
  });

  it('never holds more than the cap and keeps only unexpired entries, for any sequence', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.integer({ min: 0, max: 30 }),
            fc.integer({ min: 0, max: 3_000 }),
            fc.integer({ min: 1, max: 120 }),
          ),
          {
            maxLength: 200,
          },
        ),
        (ops) => {
          const c = clock(5_000_000);
          const store = new InMemoryNonceStore({ maxEntries: 16, now: c.now });
          const live = new Map<string, number>();
          for (const [id, stepMs, ttl] of ops) {
            c.advance(stepMs);
            for (const [n, exp] of live) if (exp * 1000 < c.now()) live.delete(n);
            const nonce = `n${id}`;
            const exp = Math.floor(c.now() / 1000) + ttl;
            let result: boolean | string;
            try {
              result = store.consume(nonce, exp);
            } catch (e) {
              result = (e as RelayError).code;
            }
            if (live.has(nonce)) expect(result).toBe(false);
            else if (live.size >= 16) expect(result).toBe('RELAY_NONCE_STORE_FULL');
            else {
              expect(result).toBe(true);
              live.set(nonce, exp);
            }
            expect(store.size).toBe(live.size);
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('rejects invalid arguments and options', () => {
    const store = new InMemoryNonceStore();
    expect(() => store.consume('', 1)).toThrow(TypeError);
    expect(() => store.consume('n', 1.5)).toThrow(TypeError);
    expect(() => new InMemoryNonceStore({ maxEntries: 0 })).toThrow(RangeError);
  });
});
