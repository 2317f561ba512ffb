import type { ServerResponse } from 'node:http';

/** Response headers of POST /api/chat (spec section 4). */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};

/** Options of {@link SseWriter}. */
export interface SseWriterOptions {
  /** A comment line is sent when nothing else was written for this long (keeps proxies from timing out). */
  heartbeatMs: number;
  /** Extra response headers, e.g. the thread id. */
  headers?: Record<string, string>;
}

/**
 * Writes Server-Sent Events on a response: `id:`, `event:` and `data:` lines per frame (multi-line data split
 * into several `data:` lines, as the format requires), heartbeat comments while idle, and nothing after the
 * stream ended or the client left.
 */
export class SseWriter {
  private nextId = 1;
  private lastWrite = Date.now();
  private timer?: NodeJS.Timeout;
  private ended = false;
  private corked = false;
  private wrote = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly options: SseWriterOptions,
  ) {}

  /**
   * Sets the status line and headers. They leave with the first frame written in the same callback (one socket
   * write for both), or on their own at the end of the event-loop turn if no frame was written, so the client
   * sees the stream open either way.
   */
  open(): void {
    this.res.writeHead(200, { ...SSE_HEADERS, ...this.options.headers });
    setImmediate(() => {
      // `headersSent` is already true after writeHead (headers are stored, not sent), so track writes here.
      if (!this.wrote && !this.closed) this.res.flushHeaders();
    });
    this.res.once('close', () => this.stopHeartbeat());
    if (this.options.heartbeatMs > 0) {
      this.timer = setInterval(() => {
        if (Date.now() - this.lastWrite >= this.options.heartbeatMs) this.comment('heartbeat');
      }, Math.max(10, Math.floor(this.options.heartbeatMs / 2)));
      this.timer.unref();
    }
  }

  /** True once ended or the connection is gone: further sends are dropped. */
  get closed(): boolean {
    return this.ended || this.res.destroyed || this.res.writableEnded;
  }

  /** Writes one frame; objects are sent as JSON, strings as they are. Returns false if nothing was written. */
  send(event: string, data: unknown): boolean {
    if (this.closed) return false;
    // JSON never holds a raw line break, so only strings need splitting into several data lines.
    const lines =
      typeof data === 'string' ? data.split(/\r\n|\r|\n/).map((l) => `data: ${l}\n`).join('') : `data: ${JSON.stringify(data)}\n`;
    this.write(`id: ${this.nextId++}\nevent: ${event}\n${lines}\n`);
    return true;
  }

  /** Writes a comment line (ignored by EventSource parsers). */
  comment(text: string): void {
    if (this.closed) return;
    this.write(`: ${text.replace(/[\r\n]+/g, ' ')}\n\n`);
  }

  /** Ends the response and stops the heartbeat. */
  end(): void {
    this.stopHeartbeat();
    if (this.closed) return;
    this.ended = true;
    this.res.end();
  }

  private write(chunk: string): void {
    this.lastWrite = Date.now();
    const first = !this.wrote;
    this.wrote = true;
    // The first frame leaves with the headers as soon as the current callback returns (nextTick): under load
    // the rest of a loop turn can take several milliseconds, and time to first event is what a client waits
    // on. Later frames written in the same turn of the event loop (a burst of tokens, frames sent from promise
    // callbacks) leave in one socket write instead of one each: uncorking waits for the end of the turn
    // (setImmediate). ADR 0405.
    if (!this.corked) {
      this.corked = true;
      this.res.cork();
      const uncork = (): void => {
        this.corked = false;
        // end() already uncorked fully; the socket may by now carry the next response on this connection.
        if (!this.res.writableEnded) this.res.uncork();
      };
      if (first) process.nextTick(uncork);
      else setImmediate(uncork);
    }
    this.res.write(chunk);
  }

  private stopHeartbeat(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
