// Preload of process-memory.mjs (`node -r`): samples the process's memory every 10 ms and keeps the peak, tracks
// WebAssembly memories (weakly), and on SIGUSR2 writes {now, peak, spaces, smaps} as JSON to MEMORY_PROBE_OUT.
// MEMORY_PROBE_GC=1 (with --expose-gc) collects garbage first.
const fs = require('node:fs');
const v8 = require('node:v8');

const memories = [];
const track = (m) => memories.push(new WeakRef(m));
const NativeMemory = WebAssembly.Memory;
WebAssembly.Memory = function Memory(...args) {
  const m = new NativeMemory(...args);
  track(m);
  return m;
};
WebAssembly.Memory.prototype = NativeMemory.prototype;
const exported = (instance) => {
  for (const v of Object.values(instance?.exports ?? {})) if (v instanceof NativeMemory) track(v);
};
const NativeInstance = WebAssembly.Instance;
WebAssembly.Instance = function Instance(...args) {
  const i = new NativeInstance(...args);
  exported(i);
  return i;
};
WebAssembly.Instance.prototype = NativeInstance.prototype;
const nativeInstantiate = WebAssembly.instantiate;
WebAssembly.instantiate = async (...args) => {
  const r = await nativeInstantiate(...args);
  exported(r.instance ?? r);
  return r;
};

const MB = (b) => Math.round(b / 104857.6) / 10;
const wasm = () => memories.map((r) => r.deref()?.buffer.byteLength ?? 0).filter((b) => b > 65536);
function sample() {
  const u = process.memoryUsage();
  return {
    rss: MB(u.rss),
    heapTotal: MB(u.heapTotal),
    heapUsed: MB(u.heapUsed),
    external: MB(u.external),
    arrayBuffers: MB(u.arrayBuffers),
    wasm: wasm().map(MB),
  };
}
const t0 = Date.now();
let peak = { rss: 0 };
setInterval(() => {
  if (process.memoryUsage.rss() > peak.rss * 1048576) peak = { ...sample(), atMs: Date.now() - t0 };
}, 10).unref();

process.on('SIGUSR2', () => {
  if (process.env.MEMORY_PROBE_GC && global.gc) global.gc();
  const spaces = Object.fromEntries(
    v8.getHeapSpaceStatistics().map((s) => [s.space_name, [MB(s.space_used_size), MB(s.space_size)]]),
  );
  let smaps = {};
  try {
    for (const line of fs.readFileSync('/proc/self/smaps_rollup', 'utf8').split('\n')) {
      const m = /^(Rss|Anonymous|Pss_File):\s+(\d+) kB/.exec(line);
      if (m) smaps[m[1]] = MB(Number(m[2]) * 1024);
    }
  } catch {
    smaps = {};
  }
  fs.writeFileSync(
    process.env.MEMORY_PROBE_OUT,
    JSON.stringify({ now: sample(), peak, spaces, smaps, uptimeMs: Date.now() - t0 }),
  );
});
