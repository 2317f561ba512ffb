// Shared set-up of the platform-auth benchmarks: modules resolved from the service package (its dist and its
// dependencies), an embedded database, silent logging, and autocannon runs against loopback servers.
import { createRequire } from 'node:module';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const serviceDir = path.join(here, '..', '..', 'services', 'platform-auth');
export const require = createRequire(path.join(serviceDir, 'package.json'));

export const autocannon = require('autocannon');
export const bcrypt = require('bcrypt');
export const jwt = require('jsonwebtoken');
export const { openDatabase } = require('@care/db');
export const kit = require('@care/service-kit');
export const dist = (file) => require(path.join(serviceDir, 'dist', file));

export const SECRET = 'bench-secret-of-at-least-thirty-two-bytes';

/** Opens an in-memory, migrated platform-auth database. */
export function openBenchDb() {
  return openDatabase({
    uri: 'pglite://memory',
    appName: 'platform-auth',
    migrationsFolder: path.join(serviceDir, 'drizzle'),
    runtimeRole: 'care_auth_app',
  });
}

/** Listens on loopback; resolves { url, close }. */
export function listen(app) {
  return new Promise((resolve) => {
    const server = http.createServer(app);
    server.keepAliveTimeout = 65000;
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        close: () =>
          new Promise((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      }),
    );
  });
}

/** One autocannon run; returns requests per second (mean) and latency percentiles, failing on non-2xx. */
export async function load(opts) {
  const result = await autocannon({ connections: 50, duration: 8, ...opts });
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0)
    throw new Error(
      `${opts.title ?? opts.url}: ${bad} failed requests (non2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts})`,
    );
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
  };
}

/** Markdown table. */
export function table(headers, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}

export const fmt = (n, d = 0) => Number(n).toFixed(d);
