import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { Express } from 'express';
import type { Database } from '@care/db';
import { createLogger } from '@care/service-kit';
import { createApp, createAppDeps, type AppDeps, type AppRuntime } from '../../src/app';
import { CatalogStore } from '../../src/catalog/catalog.store';
import { loadAppConfig } from '../../src/config';
import { openCareConsultDatabase } from '../../src/db/open-database';
import { TEST_JWT_SECRET } from '../builders/user.builder';

/** A loopback port nothing listens on (bound then released), so probes fail fast with ECONNREFUSED. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The small fixture workspace (valid, system, template and broken packages). */
export const FIXTURE_WORKSPACE = path.join(__dirname, '..', 'fixtures', 'workspace');

/** A running test app with its dependencies and captured log lines. */
export interface TestContext {
  app: Express;
  deps: AppDeps;
  logs: Array<Record<string, unknown>>;
  attachmentsDir: string;
  close(): Promise<void>;
}

/** Options of {@link createTestContext}. */
export interface TestContextOptions {
  /** Database URI; default an ephemeral PGlite. */
  databaseUri?: string;
  /** An already open database (shared by several contexts of one file). */
  database?: Database;
  workspaceRoot?: string;
  /** Extra environment variables for the config. */
  env?: Record<string, string>;
  overrides?: Partial<AppRuntime>;
}

/**
 * Builds the real app over a real database (PGlite in memory by default) and a real workspace, with the
 * config loaded through the same schema as production. Outbound probes go to a closed local port unless
 * the test points them at its own fake server.
 */
export async function createTestContext(opts: TestContextOptions = {}): Promise<TestContext> {
  const attachmentsDir = mkdtempSync(path.join(os.tmpdir(), 'care-attach-'));
  const config = loadAppConfig({
    JWT_SECRET: TEST_JWT_SECRET,
    WORKSPACE_ROOT: opts.workspaceRoot ?? FIXTURE_WORKSPACE,
    WORKSPACE_WATCH: 'false',
    ATTACHMENTS_DIR: attachmentsDir,
    LOCAL_LLM_BASE_URL: `http://127.0.0.1:${await closedPort()}`,
    LLM_PROBE_TIMEOUT_MS: '300',
    LOG_LEVEL: 'info',
    ...opts.env,
  });
  const logs: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk, _enc, cb) {
      for (const line of String(chunk).split('\n'))
        if (line) logs.push(JSON.parse(line) as Record<string, unknown>);
      cb();
    },
  });
  const logger = createLogger({ name: 'care-consult-test', level: 'info', destination });
  const ownDb = !opts.database;
  const database =
    opts.database ?? (await openCareConsultDatabase({ uri: opts.databaseUri ?? 'pglite://memory' }));
  const catalog = new CatalogStore({ root: config.WORKSPACE_ROOT!, logger });
  await catalog.load();
  const deps = createAppDeps({ config, logger, database, catalog, ...opts.overrides });
  await deps.redFlagScreen.ready; // as main does: the model loads before the first request, never during it
  await deps.agentRouter.ready(); // as main does before listening: no request waits for the routing model

  return {
    app: createApp(deps),
    deps,
    logs,
    attachmentsDir,
    async close() {
      catalog.close();
      await deps.audit.flush();
      if (ownDb) await database.close();
      rmSync(attachmentsDir, { recursive: true, force: true });
    },
  };
}
