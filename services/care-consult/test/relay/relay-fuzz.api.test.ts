import express, { type Express } from 'express';
import fc from 'fast-check';
import { InMemoryNonceStore, issueRelayTicket } from '@care/crypto';
import type { Database } from '@care/db';
import { createLogger, finalizeApp } from '@care/service-kit';
import { openCareConsultDatabase } from '../../src/db/open-database';
import { AuditService, type AuditInput } from '../../src/audit/audit.service';
import { relayRoutes } from '../../src/relay/relay.routes';
import type { TestContext } from '../support/test-app';
import {
  CALLBACK,
  FOREIGN_RELAY_KEY,
  RELAY_KEY,
  aPayload,
  relayTestContext,
  signTicket,
} from './support/relay-fixtures';
import { fuzzQuery, type FuzzInputs } from './support/fuzz-arbitraries';
import { injectGet, type InjectedAnswer } from './support/inject';

const FUZZ_RUNS = Number(process.env.RELAY_FUZZ_RUNS ?? 100_000);
const SEED = Number(process.env.RELAY_FUZZ_SEED ?? Date.now() % 2 ** 31);
const BATCH = 5_000;
const CONCURRENCY = 8;
const CONTROL_TICKETS = 200;
/** Inputs sent through the complete app; the rest go to the relay router behind the same problem middleware. */
const FULL_APP_RUNS = Number(process.env.RELAY_FUZZ_FULL_APP_RUNS ?? 5_000);

function problemCode(answer: InjectedAnswer): string {
  try {
    return (JSON.parse(answer.body) as { code?: string }).code ?? 'NO_CODE';
  } catch {
    return 'NOT_A_PROBLEM_BODY';
  }
}

async function pool<T>(items: T[], concurrency: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

// Driven in process (see injectGet): the first FULL_APP_RUNS inputs through the whole app (createApp), the rest
// through the relay router alone, so 100k inputs fit in about a minute on a loaded 2-core machine. The HTTP layer
// in front is covered by the supertest suites.
describe('relay callback fuzz', () => {
  let database: Database;
  let ctx: TestContext;
  let relayOnly: Express;
  const audited: AuditInput[] = [];

  beforeAll(async () => {
    database = await openCareConsultDatabase({ uri: 'pglite://memory' });
    // Silent logger: 100k access-log lines would only measure JSON serialisation.
    const relay = { keys: { current: RELAY_KEY }, nonceStore: new InMemoryNonceStore() };
    const logger = createLogger({ name: 'fuzz', level: 'silent' });
    // Audit events are kept in memory: thousands of PGlite transactions would be most of the run (the real
    // writer is exercised by relay.api.test). The fuzz still checks what would have been written.
    const audit = new (class extends AuditService {
      override record(input: AuditInput): Promise<void> {
        audited.push(input);
        return Promise.resolve();
      }
    })({ database, logger });
    ctx = await relayTestContext({ database, overrides: { relay, logger, audit } });
    // The production relay router and problem middleware without the shared front (request ids, access log,
    // helmet, CORS), which costs two thirds of a request and never looks at the query. Same deps, same nonce store.
    relayOnly = express();
    relayOnly.use(relayRoutes(ctx.deps));
    finalizeApp(relayOnly);
  });
  afterAll(async () => {
    await ctx.close();
    await database.close();
  });

  it(`never answers 5xx and never redirects for ${FUZZ_RUNS} random and mutated tickets and query strings`, async () => {
    // Control: genuine tickets redirect once each (so the harness does see redirects). After this they are
    // consumed, and every input below, even one that decodes back to a genuine ticket (percent-encoding,
    // reordering, another code), must be rejected. Half live 3 s, so the run also meets expired genuine tickets.
    const callbacks = [
      'http://127.0.0.1:5173/cb',
      'http://127.0.0.1/a/b?x=1',
      'careapp://oauth/done',
      'careapp://x?y=%20',
    ];
    const consumed: string[] = [];
    for (let i = 0; i < CONTROL_TICKETS; i++) {
      const cb = callbacks[i % callbacks.length];
      const { ticket } = issueRelayTicket(
        { uid: `u${i}`, pid: 'p', cid: `c${i}`, cb, ttlSeconds: i % 2 ? 120 : 3 },
        { current: RELAY_KEY },
      );
      const res = await injectGet(ctx.app, `${CALLBACK}?code=control-${i}&state=${ticket}`);
      expect([res.status, res.location?.startsWith(`${cb.split('?')[0]}?`)]).toEqual([302, true]);
      consumed.push(ticket);
    }

    const now = () => Math.floor(Date.now() / 1000);
    const inputs: FuzzInputs = {
      consumed,
      signed: (over) => signTicket({ ...aPayload(now()), ...over }),
      foreign: (over) => signTicket({ ...aPayload(now()), ...over }, FOREIGN_RELAY_KEY),
    };
    const failures: Array<{ target: string; answer: InjectedAnswer }> = [];
    const codes = new Map<string, number>();
    let sent = 0;
    const arbitrary = fuzzQuery(inputs);
    for (let batch = 0; sent < FUZZ_RUNS; batch++) {
      const targets = fc.sample(arbitrary, {
        numRuns: Math.min(BATCH, FUZZ_RUNS - sent),
        seed: SEED + batch,
      });
      await pool(targets, CONCURRENCY, async (target) => {
        const answer = await injectGet(sent++ < FULL_APP_RUNS ? ctx.app : relayOnly, target);
        const code = problemCode(answer);
        codes.set(code, (codes.get(code) ?? 0) + 1);
        // The service-wide front door (ADR 0005) refuses a malformed query string before the relay sees it; it
        // must still be a 400 problem with no redirect. Every other answer is the relay's own, with no-store.
        const frontDoor = code === 'MALFORMED_QUERY';
        const ok =
          answer.status === 400 &&
          answer.location === undefined &&
          (frontDoor || (code.startsWith('RELAY_') && answer.cacheControl === 'no-store')) &&
          answer.contentType?.startsWith('application/problem+json') === true;
        if (!ok && failures.length < 5) failures.push({ target: target.slice(0, 300), answer });
      });
    }
    if (process.env.RELAY_FUZZ_VERBOSE) console.info('relay fuzz outcomes', Object.fromEntries(codes));
    if (failures.length) console.error(`relay fuzz failed with RELAY_FUZZ_SEED=${SEED}`, failures);
    expect(failures).toEqual([]);
    expect(sent).toBe(FUZZ_RUNS);
    // The run reached every layer: query policy, structure, signature, time, nonce and allowlist checks.
    const notReached = [
      'RELAY_MISSING_PARAMETER',
      'RELAY_REPEATED_PARAMETER',
      'RELAY_INVALID_PROVIDER_ERROR',
      'RELAY_INVALID_ISSUER',
      'RELAY_PARAMETER_TOO_LONG',
      'RELAY_MALFORMED_TICKET',
      'RELAY_BAD_SIGNATURE',
      'RELAY_EXPIRED',
      'RELAY_TTL_TOO_LONG',
      'RELAY_ISSUED_IN_FUTURE',
      'RELAY_NONCE_REPLAYED',
      'RELAY_CALLBACK_NOT_ALLOWED',
    ].filter((c) => (codes.get(c) ?? 0) === 0);
    expect(notReached).toEqual([]);
  }, 600_000); // ~75 s alone on two cores; generous so a loaded CI machine does not turn slowness into a failure
});
