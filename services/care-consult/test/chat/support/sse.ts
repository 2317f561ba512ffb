import { readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';

/** One parsed SSE frame; `json` is the parsed data unless it is `[DONE]`. */
export interface Frame {
  event: string;
  data: string;
  id: string | null;
  json: any;
}

interface SseParser {
  push(chunk: string): void;
  end(): void;
}

/** The console's own SSE parser (public/console/sse-parser.js), loaded as the browser would run it. */
export function loadConsoleSseParser(): (
  onEvent: (f: { event: string; data: string; id: string | null }) => void,
) => SseParser {
  const file = path.join(__dirname, '..', '..', '..', 'public', 'console', 'sse-parser.js');
  const sandbox: { globalThis?: unknown; CareSse?: { createSseParser: any } } = {};
  sandbox.globalThis = sandbox;
  vm.runInNewContext(readFileSync(file, 'utf8'), sandbox);
  return sandbox.CareSse!.createSseParser;
}

const createParser = loadConsoleSseParser();

/** Parses a whole SSE body into frames (via the console's parser, so the page and the server agree). */
export function parseSse(body: string): Frame[] {
  const frames: Frame[] = [];
  const parser = createParser((f) =>
    frames.push({ ...f, json: f.data === '[DONE]' ? f.data : JSON.parse(f.data) }),
  );
  parser.push(body);
  parser.end();
  return frames;
}

/** The event names in order. */
export const names = (frames: Frame[]) => frames.map((f) => f.event);
