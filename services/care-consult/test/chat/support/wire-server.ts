import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake vendor server received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

/** Writes a scripted response; `closed` tells whether the client went away. */
export type WireHandler = (
  req: RecordedRequest,
  res: http.ServerResponse,
  state: { closed: () => boolean },
) => Promise<void> | void;

/** A local HTTP server speaking a vendor's wire format from a script, recording what it was sent. */
export interface WireServer {
  url: string;
  requests: RecordedRequest[];
  /** Resolves when a response was cut by the client (its socket closed before the script ended). */
  clientClosed: Promise<void>;
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1 with a random port; every request goes to `handler`. */
export async function startWireServer(handler: WireHandler): Promise<WireServer> {
  const requests: RecordedRequest[] = [];
  let markClosed!: () => void;
  const clientClosed = new Promise<void>((resolve) => (markClosed = resolve));
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const rec: RecordedRequest = {
        method: req.method ?? '',
        path: (req.url ?? '').split('?')[0],
        headers: req.headers,
        body: raw ? JSON.parse(raw) : undefined,
      };
      requests.push(rec);
      let closed = false;
      res.on('close', () => {
        if (!res.writableFinished) {
          closed = true;
          markClosed();
        }
      });
      void Promise.resolve(handler(rec, res, { closed: () => closed })).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    clientClosed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Waits `ms` (used to space out frames so a client can abort between them). */
export const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Writes SSE frames `event:`/`data:` (event omitted when null), as the vendors do. */
export function sseFrame(event: string | null, data: unknown): string {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  return `${event ? `event: ${event}\n` : ''}data: ${payload}\n\n`;
}

/** Collects every event of a provider stream. */
export async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const e of stream) out.push(e);
  return out;
}
