import fc from 'fast-check';
import { InMemoryNonceStore, RelayError, issueRelayTicket, resolveRelayTicket } from '../src';
import type { RelayKeys } from '../src';
import { aResolveInput, anIssueInput, exampleKeys, fixedNow } from './relay-fixtures';

const RUNS = { numRuns: 300 };
const keyArb = fc.string({ minLength: 32, maxLength: 64, unit: 'grapheme-ascii' });

async function outcome(
  ticket: string,
  keys: RelayKeys = exampleKeys(),
  store = new InMemoryNonceStore({ now: fixedNow }),
) {
  try {
    await resolveRelayTicket(aResolveInput(ticket, { keys, consumedNonces: store }));
    return 'RESOLVED';
  } catch (error) {
    if (error instanceof RelayError) return error.code;
    throw error;
  }
}

describe('relay ticket integrity properties', () => {
  const valid = fc
    .constant(null)
    .map(() => issueRelayTicket(anIssueInput(), exampleKeys(), { now: fixedNow }).ticket);

  it('rejects any single-character substitution anywhere in a valid ticket', async () => {
    await fc.assert(
      fc.asyncProperty(valid, fc.nat(), fc.integer({ min: 0, max: 255 }), async (ticket, at, byte) => {
        const i = at % ticket.length;
        fc.pre(ticket.charCodeAt(i) !== byte);
        const changed = ticket.slice(0, i) + String.fromCharCode(byte) + ticket.slice(i + 1);
        expect(await outcome(ticket)).toBe('RESOLVED');
        expect(await outcome(changed)).not.toBe('RESOLVED');
      }),
      RUNS,
    );
  });

  it('rejects any single-character deletion or insertion', async () => {
    await fc.assert(
      fc.asyncProperty(
        valid,
        fc.nat(),
        fc.boolean(),
        fc.integer({ min: 0, max: 255 }),
        async (ticket, at, insert, byte) => {
          const i = at % ticket.length;
          const changed = insert
            ? ticket.slice(0, i) + String.fromCharCode(byte) + ticket.slice(i)
            : ticket.slice(0, i) + ticket.slice(i + 1);
          expect(await outcome(changed)).not.toBe('RESOLVED');
        },
      ),
      RUNS,
    );
  });

  it('never accepts a resolved nonce again, whatever the order, code or repetition of attempts', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.tuple(fc.nat(), fc.string({ minLength: 1, maxLength: 8 })), {
          minLength: 1,
          maxLength: 20,
        }),
        async (count, attempts) => {
          const tickets = Array.from(
            { length: count },
            () => issueRelayTicket(anIssueInput(), exampleKeys(), { now: fixedNow }).ticket,
          );
          const store = new InMemoryNonceStore({ now: fixedNow });
          const resolved = new Set<number>();
          for (const [pick, code] of attempts) {
            const i = pick % count;
            const input = aResolveInput(tickets[i], { consumedNonces: store, authorizationCode: `c${code}` });
            const result = await resolveRelayTicket(input).then(
              () => 'RESOLVED',
              (error: RelayError) => error.code,
            );
            expect(result).toBe(resolved.has(i) ? 'RELAY_NONCE_REPLAYED' : 'RESOLVED');
            resolved.add(i);
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('key rotation properties', () => {
  it('verifies a ticket signed by a previous key and rejects it once that key is dropped', async () => {
    await fc.assert(
      fc.asyncProperty(keyArb, keyArb, keyArb, async (oldKey, newKey, otherKey) => {
        fc.pre(new Set([oldKey, newKey, otherKey]).size === 3);
        const { ticket } = issueRelayTicket(anIssueInput(), { current: oldKey }, { now: fixedNow });
        expect(await outcome(ticket, { current: newKey, previous: [otherKey, oldKey] })).toBe('RESOLVED');
        expect(await outcome(ticket, { current: newKey, previous: [otherKey] })).toBe('RELAY_BAD_SIGNATURE');
        expect(await outcome(ticket, { current: newKey })).toBe('RELAY_BAD_SIGNATURE');
      }),
      { numRuns: 100 },
    );
  });

  it('treats string keys as UTF-8 bytes, so the same key as a Buffer verifies', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 32, maxLength: 48, unit: 'grapheme' }), async (key) => {
        const { ticket } = issueRelayTicket(anIssueInput(), { current: key }, { now: fixedNow });
        expect(await outcome(ticket, { current: Buffer.from(key, 'utf8') })).toBe('RESOLVED');
      }),
      { numRuns: 100 },
    );
  });
});
