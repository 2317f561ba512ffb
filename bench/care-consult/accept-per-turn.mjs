#!/usr/bin/env node
// How many connections a Node HTTP server accepts per event-loop turn when its loop is busy (ADR 0405, update of
// 2026-11-27). A child process serves requests that each keep the loop busy WORK_MS; this process opens N
// connections, one every GAP_MS, and the server counts the `connection` events that arrive in one turn. Same run,
// two rows: a busy handler and an idle one (the baseline). Run under `strace -f -e trace=accept4,epoll_pwait` to
// see the system calls behind it. Usage: node bench/care-consult/accept-per-turn.mjs (about 15 s).
import { fork } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

const N = Number(process.env.N ?? 400);
const GAP_MS = Number(process.env.GAP_MS ?? 5);

if (process.argv[2] === 'server') {
  const work = Number(process.argv[3]);
  let batch = 0;
  const batches = [];
  const server = http.createServer((_req, res) => {
    const end = performance.now() + work;
    while (performance.now() < end);
    res.end('ok');
  });
  server.on('connection', () => {
    if (batch++ === 0) setImmediate(() => (batches.push(batch), (batch = 0)));
  });
  server.listen(0, '127.0.0.1', 2048, () => process.send(server.address().port));
  process.on('message', () => {
    process.send({
      turns: batches.length,
      max: Math.max(...batches),
      mean: batches.reduce((a, b) => a + b, 0) / batches.length,
    });
    process.exit(0);
  });
} else {
  console.log(
    '| handler work per request | connections | turns that accepted | most per turn | mean per turn | request p50 / p99 |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const work of [Number(process.env.WORK_MS ?? 10), 0]) {
    const child = fork(fileURLToPath(import.meta.url), ['server', String(work)]);
    const port = await new Promise((r) => child.once('message', r));
    const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
    const lat = [];
    await Promise.all(
      Array.from(
        { length: N },
        (_, i) =>
          new Promise((resolve) => {
            setTimeout(() => {
              const t = performance.now();
              http.get({ host: '127.0.0.1', port, agent, path: '/' }, (res) => {
                res.resume();
                res.on('end', () => (lat.push(performance.now() - t), resolve()));
              });
            }, i * GAP_MS);
          }),
      ),
    );
    child.send('report');
    const r = await new Promise((res) => child.once('message', res));
    lat.sort((a, b) => a - b);
    const q = (p) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))].toFixed(0);
    console.log(
      `| ${work} ms | ${N} | ${r.turns} | ${r.max} | ${r.mean.toFixed(2)} | ${q(0.5)} / ${q(0.99)} ms |`,
    );
  }
}
