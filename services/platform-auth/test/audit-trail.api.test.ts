import { createLogger } from '@care/service-kit';
import { listAuthEvents } from '../src/audit/audit.repository';
import { AuditTrail } from '../src/audit/audit.service';
import { openTestDb, type TestDb } from './support/harness';
import { describeEachEngine } from '@care/service-kit/testing';

describeEachEngine('audit trail', (engine) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await openTestDb(engine);
  });
  afterAll(() => t.close());

  it('stores every normal event of a burst that also carries poisoned ones, and stores the poisoned ones cleaned', async () => {
    const audit = new AuditTrail({
      db: t.db,
      logger: createLogger({ name: 'test', level: 'silent' }),
      clock: () => new Date(),
    });
    const run = `run-${Date.now()}`;
    const poisons = ['\udfff', 'a\u0000b', '\u001b[31mred', '\ud800x', 'tab\tline\nbreak'];
    const normal = Array.from({ length: 8 }, (_, i) =>
      audit.record({
        type: 'LOGIN_FAILED',
        email: `n${i}@${run}.test`,
        ip: '198.51.100.1',
        requestId: `${run}-n${i}`,
        detail: { reason: 'bad_password' },
      }),
    );
    const poisoned = poisons.map((p, i) =>
      audit.record({
        type: 'LOGIN_FAILED',
        email: `p${i}${p}@${run}.test`,
        ip: p,
        userId: `auth0|${p}`,
        requestId: `${run}-p${i}`,
        detail: { reason: p, [p]: [p], nested: { connection_id: p } },
      }),
    );
    const results = await Promise.allSettled([...normal, ...poisoned]);
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const stored = (await t.db.withSystem((tx) => listAuthEvents(tx, { limit: 500 }))).filter((e) =>
      e.requestId?.startsWith(run),
    );
    expect(
      stored
        .filter((e) => e.requestId!.includes('-n'))
        .map((e) => e.email)
        .sort(),
    ).toEqual(Array.from({ length: 8 }, (_, i) => `n${i}@${run}.test`));
    const cleaned = stored.filter((e) => e.requestId!.includes('-p'));
    expect(cleaned).toHaveLength(poisons.length);
    for (const e of cleaned) {
      // eslint-disable-next-line no-control-regex
      expect(JSON.stringify(e)).not.toMatch(/\\u0000|\\u001b|\\ud[89ab]|\\ud[c-f]|[\u0000-\u001f]/i);
    }
    expect(cleaned.find((e) => e.requestId === `${run}-p0`)!.userId).toBe('auth0|\ufffd');
  });
});
