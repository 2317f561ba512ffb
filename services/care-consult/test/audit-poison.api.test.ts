import type { Database } from '@care/db';
import { createLogger } from '@care/service-kit';
import { testEngines } from '@care/service-kit/testing';
import { openConsultDatabase } from './support/engines';
import { AuditService, type AuditInput } from '../src/audit/audit.service';

const silent = createLogger({ name: 'test', level: 'silent' });

for (const engine of testEngines()) {
  describe(`audit batches with poisoned events on ${engine.name}`, () => {
    let db: { database: Database; close(): Promise<void> };
    beforeAll(async () => {
      db = await engine.open(openConsultDatabase);
    });
    afterAll(() => db?.close());

    const normal = (i: number): AuditInput => ({
      tenantId: 'acme',
      actorId: `user-${i}`,
      action: 'relay.ticket.issue',
      resourceType: 'connection',
      resourceId: `c-${i}`,
      outcome: 'success',
      meta: { connection_id: `c-${i}` },
    });
    const everyone = { tenantId: 'acme', userId: 'x', admin: true };

    it('stores every normal event of a batch that also carries lone surrogates, NULs and control characters', async () => {
      const audit = new AuditService({ database: db.database, logger: silent });
      const poisoned: AuditInput[] = [
        { ...normal(100), actorId: 'auth0|\udfff', resourceId: '\udfff', meta: { connection_id: '\udfff' } },
        {
          ...normal(101),
          actorId: 'a\u0000b',
          action: 'relay.\u0000',
          resourceId: 'x\u0000',
          requestId: 'r\u0000',
          meta: { name: 'a\u0000b', '\ud800': 1 },
        },
        { ...normal(102), resourceId: '\u001b[2Jcleared', meta: { file: 'line\nbreak\u007f' } },
      ];
      // One batch: all recorded in the same turn of the event loop, 8 normal and 3 poisoned, interleaved.
      const inputs = [
        normal(0),
        normal(1),
        poisoned[0]!,
        normal(2),
        normal(3),
        poisoned[1]!,
        normal(4),
        normal(5),
        normal(6),
        poisoned[2]!,
        normal(7),
      ];
      await Promise.all(inputs.map((i) => audit.record(i)));
      const page = await audit.list(everyone, { limit: 100 });
      const actors = page.items.map((e) => e.actorId);
      for (let i = 0; i < 8; i++) expect(actors).toContain(`user-${i}`);
      expect(page.items).toHaveLength(11);
      const text = JSON.stringify(page.items);
      expect(text).not.toMatch(/\\u0000|\\u001b|\\u007f|\\ud[89a-f][0-9a-f]{2}/i);
      expect(actors).toContain('auth0|\ufffd');
      expect(page.items.find((e) => e.actorId === 'auth0|\ufffd')!.meta).toEqual({ connection_id: '\ufffd' });
    });

    it('writes the rest of a batch one by one when the database refuses the batch because of one event', async () => {
      // An event the sanitiser cannot save: its time is invalid, so the batch statement cannot even be built.
      let calls = 0;
      const clock = () => (++calls === 3 ? new Date(Number.NaN) : new Date());
      const audit = new AuditService({ database: db.database, logger: silent, clock });
      const inputs = Array.from({ length: 6 }, (_, i) => ({ ...normal(200 + i), tenantId: 'globex' }));
      await Promise.all(inputs.map((i) => audit.record(i)));
      const page = await audit.list({ ...everyone, tenantId: 'globex' }, { limit: 100 });
      expect(page.items.map((e) => e.actorId).sort()).toEqual([
        'user-200',
        'user-201',
        'user-203',
        'user-204',
        'user-205',
      ]);
    });
  });
}
