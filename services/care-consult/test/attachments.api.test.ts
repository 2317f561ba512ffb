import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { sql } from 'drizzle-orm';
import type { Database } from '@care/db';
import { testEngines } from '@care/service-kit/testing';
import { aUser, type UserBuilder } from './builders/user.builder';
import { FILES, multipart } from './support/multipart';
import { openConsultDatabase } from './support/engines';
import { createTestContext, type TestContext } from './support/test-app';

/** Every file below a folder, as paths relative to it. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((p) =>
    statSync(path.join(dir, p)).isFile(),
  );
}

for (const engine of testEngines()) {
  describe(`attachments on ${engine.name}`, () => {
    let db: { database: Database; close(): Promise<void> };
    let ctx: TestContext;
    let small: TestContext;
    const alice = aUser().inTenant('tenant-a').withId('alice');
    const bob = aUser().inTenant('tenant-a').withId('bob');
    const mallory = aUser().inTenant('tenant-b').withId('alice'); // same user id, other tenant

    const upload = (
      app: TestContext['app'],
      user: UserBuilder,
      name: string,
      bytes: Buffer,
      field?: string,
    ) => {
      const m = multipart(name, bytes, { field });
      return request(app)
        .post('/api/attachments')
        .set('Authorization', `Bearer ${user.token()}`)
        .set('Content-Type', m.contentType)
        .send(m.body);
    };
    const get = (app: TestContext['app'], user: UserBuilder, url: string) =>
      request(app).get(url).set('Authorization', `Bearer ${user.token()}`);

    beforeAll(async () => {
      db = await engine.open(openConsultDatabase);
      ctx = await createTestContext({ database: db.database });
      small = await createTestContext({
        database: db.database,
        env: { ATTACHMENTS_MAX_BYTES: '1024', ATTACHMENTS_MAX_PER_USER: '2' },
      });
    });
    afterAll(async () => {
      await ctx?.close();
      await small?.close();
      await db?.close();
    });

    it('stores a PDF under a generated name in the uploader\u2019s sandbox and lists it', async () => {
      const res = await upload(ctx.app, alice, 'Discharge summary.pdf', FILES.pdf).expect(201);
      expect(res.body).toMatchObject({
        name: 'Discharge summary.pdf',
        mediaType: 'application/pdf',
        size: FILES.pdf.length,
      });
      expect(res.headers.location).toBe(`/api/attachments/${res.body.id}`);
      const stored = filesUnder(ctx.attachmentsDir);
      expect(stored.some((p) => p.endsWith(`${res.body.id}.pdf`))).toBe(true);
      expect(stored.every((p) => !p.includes('Discharge'))).toBe(true);
      const list = await get(ctx.app, alice, '/api/attachments').expect(200);
      expect(list.body.items.map((i: { id: string }) => i.id)).toContain(res.body.id);
    });

    it('returns the exact bytes as a download that browsers will not render or sniff', async () => {
      const { body } = await upload(ctx.app, alice, 'scan.png', FILES.png).expect(201);
      const res = await get(ctx.app, alice, `/api/attachments/${body.id}/content`)
        .buffer(true)
        .parse((r, cb) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => cb(null, Buffer.concat(chunks)));
        });
      expect(res.status).toBe(200);
      expect(Buffer.compare(res.body as Buffer, FILES.png)).toBe(0);
      expect(res.headers['content-disposition']).toMatch(/^attachment;/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    });

    it('refuses an oversize file with 413 and writes nothing', async () => {
      const before = filesUnder(small.attachmentsDir).length;
      const res = await upload(small.app, alice, 'big.txt', Buffer.alloc(2048, 'a')).expect(413);
      expect(res.body.code).toBe('ATTACHMENT_TOO_LARGE');
      expect(filesUnder(small.attachmentsDir)).toHaveLength(before);
    });

    it.each([
      ['an executable named .pdf', 'report.pdf', FILES.exe, 'ATTACHMENT_TYPE_NOT_ALLOWED'],
      ['an ELF binary named .txt', 'notes.txt', FILES.elf, 'ATTACHMENT_TYPE_NOT_ALLOWED'],
      ['a zip archive', 'records.zip', FILES.zip, 'ATTACHMENT_TYPE_NOT_ALLOWED'],
      ['unknown binary bytes', 'data.csv', FILES.binary, 'ATTACHMENT_TYPE_NOT_ALLOWED'],
      ['a PNG claiming to be a PDF', 'scan.pdf', FILES.png, 'ATTACHMENT_TYPE_MISMATCH'],
      ['plain text claiming to be a PDF', 'letter.pdf', FILES.text, 'ATTACHMENT_TYPE_MISMATCH'],
    ])('refuses %s with 415 and stores nothing', async (_label, name, bytes, code) => {
      const before = filesUnder(ctx.attachmentsDir).length;
      const res = await upload(ctx.app, bob, name, bytes).expect(415);
      expect(res.body.code).toBe(code);
      expect(filesUnder(ctx.attachmentsDir)).toHaveLength(before);
      const list = await get(ctx.app, bob, '/api/attachments').expect(200);
      expect(list.body.items.some((i: { name: string }) => i.name === name)).toBe(false);
    });

    it.each([
      ['../../../../etc/passwd.txt', 'passwd.txt'],
      ['..\\..\\windows\\evil.md', 'evil.md'],
      ['/abs/path/notes.txt', 'notes.txt'],
      ['report\u202etxt.md', 'reporttxt.md'],
    ])('keeps a traversal name %j inside the sandbox and shows only %j', async (name, shown) => {
      const res = await upload(ctx.app, bob, name, FILES.text).expect(201);
      expect(res.body.name).toBe(shown);
      const root = path.resolve(ctx.attachmentsDir);
      for (const rel of filesUnder(root)) {
        const full = path.resolve(root, rel);
        expect(full.startsWith(root + path.sep)).toBe(true);
        expect(path.basename(full)).toMatch(/^[0-9a-f-]{36}\.[a-z]+$/);
      }
      expect(existsSync(path.join(root, '..', 'etc'))).toBe(false);
    });

    it('refuses a bare ".." or an executable disguised by a right-to-left override, storing nothing', async () => {
      const before = filesUnder(ctx.attachmentsDir).length;
      await upload(ctx.app, bob, '..', FILES.text).expect(400);
      const rlo = await upload(ctx.app, bob, 'invoice\u202etxt.exe', FILES.text).expect(415);
      expect(rlo.body.code).toBe('ATTACHMENT_TYPE_MISMATCH');
      expect(filesUnder(ctx.attachmentsDir)).toHaveLength(before);
    });

    it('never overwrites: the same name twice gives two files', async () => {
      const a = await upload(ctx.app, alice, 'same.txt', Buffer.from('first\n')).expect(201);
      const b = await upload(ctx.app, alice, 'same.txt', Buffer.from('second\n')).expect(201);
      expect(a.body.id).not.toBe(b.body.id);
      const stored = filesUnder(ctx.attachmentsDir);
      const first = stored.find((p) => p.endsWith(`${a.body.id}.txt`))!;
      expect(readFileSync(path.join(ctx.attachmentsDir, first), 'utf8')).toBe('first\n');
    });

    it('hides a file from another user of the same tenant: 404 for read, download and delete, absent from lists', async () => {
      const { body } = await upload(ctx.app, alice, 'private.txt', FILES.text).expect(201);
      for (const url of [`/api/attachments/${body.id}`, `/api/attachments/${body.id}/content`]) {
        expect((await get(ctx.app, bob, url)).status).toBe(404);
      }
      await request(ctx.app)
        .delete(`/api/attachments/${body.id}`)
        .set('Authorization', `Bearer ${bob.token()}`)
        .expect(404);
      const list = await get(ctx.app, bob, '/api/attachments').expect(200);
      expect(list.body.items.map((i: { id: string }) => i.id)).not.toContain(body.id);
      await get(ctx.app, alice, `/api/attachments/${body.id}`).expect(200);
    });

    it('hides a file from another tenant, even for the same user id, and RLS shows that tenant no rows of it', async () => {
      const { body } = await upload(ctx.app, alice, 'tenant-a-only.txt', FILES.text).expect(201);
      await get(ctx.app, mallory, `/api/attachments/${body.id}`).expect(404);
      await get(ctx.app, mallory, `/api/attachments/${body.id}/content`).expect(404);
      const list = await get(ctx.app, mallory, '/api/attachments').expect(200);
      expect(list.body.items.map((i: { id: string }) => i.id)).not.toContain(body.id);
      const rows = await db.database.withTenant('tenant-b', (tx) =>
        tx.execute(sql`select id from attachments`),
      );
      expect(rows.rows.map((r) => (r as { id: string }).id)).not.toContain(body.id);
    });

    it('deletes the owner\u2019s file, row and bytes', async () => {
      const { body } = await upload(ctx.app, alice, 'delete-me.txt', FILES.text).expect(201);
      await request(ctx.app)
        .delete(`/api/attachments/${body.id}`)
        .set('Authorization', `Bearer ${alice.token()}`)
        .expect(204);
      await get(ctx.app, alice, `/api/attachments/${body.id}`).expect(404);
      expect(filesUnder(ctx.attachmentsDir).some((p) => p.includes(body.id))).toBe(false);
    });

    it('refuses a request without a file, with the wrong field, or with a malformed id (400)', async () => {
      await request(ctx.app)
        .post('/api/attachments')
        .set('Authorization', `Bearer ${alice.token()}`)
        .send({ file: 'x' })
        .expect(400);
      const wrong = await upload(ctx.app, alice, 'a.txt', FILES.text, 'document').expect(400);
      expect(wrong.body.code).toBe('INVALID_UPLOAD');
      await get(ctx.app, alice, '/api/attachments/not-a-uuid').expect(400);
    });

    it('answers a NUL or control character in the file name, a broken multipart body and a bad id with 400, storing nothing', async () => {
      const before = filesUnder(ctx.attachmentsDir).length;
      for (const name of ['a\u0000.txt', 'bell\u0007.txt', 'two\nlines.txt']) {
        const res = await upload(ctx.app, alice, name, FILES.text);
        expect({ name, status: res.status }).toEqual({ name, status: 400 });
        expect(['INVALID_FILENAME', 'MALFORMED_MULTIPART']).toContain(res.body.code);
      }
      // The RFC 5987 form decodes to a name with a NUL, past the multipart parser.
      for (const encoded of ['a%00b.txt', 'esc%1B.txt']) {
        const body = Buffer.concat([
          Buffer.from(
            `--XyZ\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''${encoded}\r\nContent-Type: text/plain\r\n\r\n`,
          ),
          FILES.text,
          Buffer.from('\r\n--XyZ--\r\n'),
        ]);
        const res = await request(ctx.app)
          .post('/api/attachments')
          .set('Authorization', `Bearer ${alice.token()}`)
          .set('Content-Type', 'multipart/form-data; boundary=XyZ')
          .send(body);
        expect({ encoded, status: res.status }).toEqual({ encoded, status: 400 });
      }
      const m = multipart('ok.txt', FILES.text);
      const broken = [
        m.body.subarray(0, m.body.length - 20),
        Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="file"\r\n'),
        Buffer.from('garbage'),
      ];
      for (const body of broken) {
        const res = await request(ctx.app)
          .post('/api/attachments')
          .set('Authorization', `Bearer ${alice.token()}`)
          .set('Content-Type', m.contentType)
          .send(body);
        expect(res.status).toBe(400);
      }
      const noBoundary = await request(ctx.app)
        .post('/api/attachments')
        .set('Authorization', `Bearer ${alice.token()}`)
        .set('Content-Type', 'multipart/form-data')
        .send(m.body);
      expect(noBoundary.status).toBe(400);
      for (const id of ['%ff', '%E0%A4%A', 'a%00b', '__proto__'])
        expect((await get(ctx.app, alice, `/api/attachments/${id}`)).status).toBe(400);
      expect(filesUnder(ctx.attachmentsDir)).toHaveLength(before);
    });

    it('enforces the per-user count limit with 409', async () => {
      const carol = aUser().inTenant('tenant-a').withId('carol');
      await upload(small.app, carol, 'one.txt', FILES.text).expect(201);
      await upload(small.app, carol, 'two.txt', FILES.text).expect(201);
      const res = await upload(small.app, carol, 'three.txt', FILES.text).expect(409);
      expect(res.body.code).toBe('ATTACHMENT_QUOTA_EXCEEDED');
    });

    it('audits uploads and refusals without any file content', async () => {
      const dave = aUser().inTenant('tenant-a').withId('dave');
      await upload(ctx.app, dave, 'secret-diagnosis.txt', Buffer.from('SECRET-BODY-TEXT\n')).expect(201);
      await upload(ctx.app, dave, 'x.pdf', FILES.exe).expect(415);
      const res = await get(ctx.app, dave, '/api/audit?action=attachment.upload').expect(200);
      expect(res.body.items.map((e: { outcome: string }) => e.outcome).sort()).toEqual(['denied', 'success']);
      expect(JSON.stringify(res.body)).not.toContain('SECRET-BODY-TEXT');
    });
  });
}
