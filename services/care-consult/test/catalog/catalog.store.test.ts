import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { createLogger } from '@care/service-kit';
import { CatalogStore, type CatalogSnapshot } from '../../src/catalog/catalog.store';

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'workspace');

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk, _e, cb) {
      for (const l of String(chunk).split('\n')) if (l) lines.push(JSON.parse(l));
      cb();
    },
  });
  return { lines, logger: createLogger({ name: 'catalog-test', destination }) };
}

const agent = (id: string, extra = '') =>
  `---\nid: ${id}\nname: ${id}\ndescription: d.\ndomain: education\ncategory: education.new\nstatus: active\nskills: []\ntools: []\nclinical: false\nversion: 1.0.0\n${extra}---\nYou are ${id}.\n`;

describe('CatalogStore', () => {
  let root: string;
  let store: CatalogStore | undefined;
  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'care-ws-'));
    cpSync(FIXTURE, root, { recursive: true });
  });
  afterEach(() => {
    store?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('logs each skipped package as an error with its file and field, and keeps serving the rest', async () => {
    const { lines, logger } = capture();
    store = new CatalogStore({ root, logger });
    const snap = await store.load();
    const skipped = lines.filter((l) => l.msg === 'workspace package skipped');
    expect(skipped).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ level: 50, file: 'agents/bad-domain/AGENT.md', field: 'domain' }),
      ]),
    );
    expect(snap.activeAgents).toHaveLength(7);
  });

  it('reloads after a file changes and swaps in the new catalog', async () => {
    store = new CatalogStore({ root, logger: capture().logger, debounceMs: 50 });
    await store.load();
    store.watch();
    const reloaded = new Promise<CatalogSnapshot>((resolve) => store!.onReload(resolve));
    mkdirSync(path.join(root, 'agents', 'new-agent'));
    writeFileSync(path.join(root, 'agents', 'new-agent', 'AGENT.md'), agent('new-agent'));
    const snap = await reloaded;
    expect(snap.agents.has('new-agent')).toBe(true);
    expect(store.snapshot().taxonomy.domains.education.count).toBe(1);
    expect(snap.index.search('new-agent')[0]?.id).toBe('new-agent');
  });

  it('keeps the previous agent out, not the whole catalog, when an edit breaks one manifest', async () => {
    store = new CatalogStore({ root, logger: capture().logger });
    await store.load();
    writeFileSync(
      path.join(root, 'agents', 'sleep-coach', 'AGENT.md'),
      agent('sleep-coach', 'tags: not-a-list\n'),
    );
    const snap = await store.load();
    expect(snap.agents.has('sleep-coach')).toBe(false);
    expect(snap.activeAgents).toHaveLength(6);
    expect(snap.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ file: 'agents/sleep-coach/AGENT.md', field: 'tags' }),
      ]),
    );
  });
});
