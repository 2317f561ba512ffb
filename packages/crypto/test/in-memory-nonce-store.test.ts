import fc from 'fast-check';
import { InMemoryNonceStore, RelayError } from '../src';

function clock(startMs: number) {
  let now = startMs;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('InMemoryNonceStore', () => {
  it('accepts a nonce once and refuses it while it has not expired', async () => {
    const c = clock(1_000_000);
    const store = new InMemoryNonceStore({ now: c.now });
    expect(await store.consume('n1', 1_060)).toBe(true);
    c.advance(60_000); // exactly the expiry instant: still live
    expect(await store.consume('n1', 1_060)).toBe(false);
  });

  it('drops an entry once its expiry second has passed', async () => {
    const c = clock(1_000_000);
    const store = new InMemoryNonceStore({ now: c.now });
    await store.consume('n1', 1_010);
    await store.consume('n2', 1_100);
    c.advance(10_001);
    expect(await store.consume('n3', 1_100)).toBe(true);
    expect(store.size).toBe(2);
  });

  it('refuses a new nonce with RELAY_NONCE_STORE_FULL at the cap instead of evicting a live one', async () => {
    const c = clock(1_000_000);
    const store = new InMemoryNonceStore({ maxEntries: 3, now: c.now });
    for (const n of ['a', 'b', 'c']) expect(await store.consume(n, 1_120)).toBe(true);
    await expect(store.consume('d', 1_120)).rejects.toEqual(
      expect.objectContaining({ code: 'RELAY_NONCE_STORE_FULL' }),
    );
    await expect(store.consume('d', 1_120)).rejects.toBeInstanceOf(RelayError);
    expect(await store.consume('a', 1_120)).toBe(false); // a live entry was not evicted
    c.advance(120_001);
    expect(await store.consume('d', 1_240)).toBe(true);
    expect(store.size).toBe(1);
  });

  it('never holds more than the cap and keeps only unexpired entries, for any sequence', async () => {
    await fc.assert(
      fc.asyncProperty(
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
        async (ops) => {
          const c = clock(5_000_000);
          const store = new InMemoryNonceStore({ maxEntries: 16, now: c.now });
          const live = new Map<string, number>();
          for (const [id, stepMs, ttl] of ops) {
            c.advance(stepMs);
            for (const [n, exp] of live) if (exp * 1000 < c.now()) live.delete(n);
            const nonce = `n${id}`;
            const exp = Math.floor(c.now() / 1000) + ttl;
            const result = await store.consume(nonce, exp).catch((e: RelayError) => e.code);
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

  it('rejects invalid arguments and options', async () => {
    const store = new InMemoryNonceStore();
    await expect(store.consume('', 1)).rejects.toBeInstanceOf(TypeError);
    await expect(store.consume('n', 1.5)).rejects.toBeInstanceOf(TypeError);
    expect(() => new InMemoryNonceStore({ maxEntries: 0 })).toThrow(RangeError);
  });
});
