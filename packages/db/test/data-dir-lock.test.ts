// The embedded engine's data folder belongs to one process at a time (ADR 0011): a second process, or a second
// open in the same process, fails at once with a message that says what to do; closing hands the folder on.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DataDirLockedError, openDatabase, type OpenDatabaseOptions } from '../src';
import { notes } from './fixtures/notes.schema';
import { MIGRATIONS, RUNTIME_ROLE } from './support/engines';

const options: OpenDatabaseOptions = {
  appName: 'db-test',
  migrationsFolder: MIGRATIONS,
  runtimeRole: RUNTIME_ROLE,
};
const CHILD = path.join(__dirname, 'fixtures', 'open-in-child.ts');
const REGISTER = path.join(__dirname, 'support', 'ts-register.cjs');

/** Starts the child on `dataDir`; resolves with its first output line, and the process to stop later. */
function openInChild(
  dataDir: string,
): Promise<{ child: ChildProcessWithoutNullStreams; line: string; ms: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, ['-r', REGISTER, CHILD, dataDir], { stdio: 'pipe' });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve({ child, line: out.slice(0, nl), ms: Date.now() - started });
    });
    child.once('exit', (code) => reject(new Error(`child exited ${code} before a line: ${out} ${err}`)));
  });
}

function stop(child: ChildProcessWithoutNullStreams): Promise<string> {
  return new Promise((resolve) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', () => resolve(out));
    child.kill('SIGTERM');
  });
}

// Each test starts the embedded engine twice (about 5 s each on an idle core, far more on a loaded CI machine).
const SLOW = 300_000;

describe('embedded data folder lock', () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'care-db-lock-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it(
    'refuses a second process while the first holds the folder, then hands it on when the first closes',
    async () => {
      const dataDir = path.join(root, 'pg');
      const first = await openDatabase({ ...options, dataDir });
      await first.withTenant('acme', (tx) =>
        tx.insert(notes).values({ tenantId: 'acme', id: '1', body: 'first' }),
      );

      const refused = await openInChild(dataDir).catch((e: Error) => ({
        line: e.message,
        child: undefined,
        ms: 0,
      }));
      const reported = JSON.parse(refused.line) as { name: string; message: string };
      expect(reported.name).toBe('DataDirLockedError');
      expect(reported.message).toContain(dataDir);
      expect(reported.message).toMatch(/another process.*DATABASE_URI/s);
      // Fails fast: no waiting for the engine, no retry loop (the child's own start-up is most of this).
      expect(refused.ms).toBeLessThan(15_000);
      // The refused process did not disturb the holder.
      expect(await first.withTenant('acme', (tx) => tx.select().from(notes))).toHaveLength(1);

      await first.close();
      const second = await openInChild(dataDir);
      expect(second.line).toBe('OPEN');
      expect(await stop(second.child)).toContain('CLOSED');
    },
    SLOW,
  );

  it(
    'refuses this process while a child holds the folder, and a second open in one process too',
    async () => {
      const dataDir = path.join(root, 'pg');
      const holder = await openInChild(dataDir);
      expect(holder.line).toBe('OPEN');
      try {
        const err = await openDatabase({ ...options, dataDir }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(DataDirLockedError);
        expect((err as Error).message).toMatch(/one process per data folder/);
      } finally {
        await stop(holder.child);
      }
      const mine = await openDatabase({ ...options, dataDir });
      try {
        await expect(openDatabase({ ...options, dataDir })).rejects.toBeInstanceOf(DataDirLockedError);
      } finally {
        await mine.close();
      }
    },
    SLOW,
  );
});
