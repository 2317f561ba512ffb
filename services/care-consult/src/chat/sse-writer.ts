import type { ServerResponse } from 'node:http';

/** Response headers of POST /api/chat (ADR 0400). */
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
  private wrote = false;
  private pending: string[] = [];
  private flushScheduled = false;

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
      this.timer = setInterval(
        () => {
          if (Date.now() - this.lastWrite >= this.options.heartbeatMs) this.comment('heartbeat');
        },
        Math.max(10, Math.floor(this.options.heartbeatMs / 2)),
      );
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
      typeof data === 'string'
        ? data
            .split(/\r\n|\r|\n/)
            .map((l) => `data: ${l}\n`)
            .join('')
        : `data: ${JSON.stringify(data)}\n`;
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
    // Frames still waiting for the end of the turn leave with the end of the body, in one write.
    if (this.pending.length > 0) this.res.end(this.takePending());
    else this.res.end();
  }

  private write(chunk: string): void {
    this.lastWrite = Date.now();
    const first = !this.wrote;
    this.wrote = true;
    this.pending.push(chunk);
    // The first frame leaves with the headers as soon as the current callback returns (nextTick): under load the
    // rest of a loop turn can take several milliseconds, and time to first event is what a client waits on. Later
    // frames written in the same turn of the event loop (a burst of tokens, frames sent from promise callbacks)
    // are joined into one response write, so one chunk and one socket write instead of one each (setImmediate).
    // The writer buffers itself rather than corking the response: on Node 22, end() on a corked response sends
    // the final chunk ahead of the corked frames. ADR 0405.
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      if (first) process.nextTick(this.flush);
      else setImmediate(this.flush);
    }
  }

  /** Takes the frames waiting for the end of the turn, joined; empty when none wait. */
  private takePending(): string {
    const data = this.pending.length === 1 ? this.pending[0]! : this.pending.join('');
    this.pending = [];
    return data;
  }

  private readonly flush = (): void => {
    this.flushScheduled = false;
    if (this.pending.length === 0) return;
    const data = this.takePending();
    // end() already sent what was pending; the connection may by now carry the next response.
    if (!this.res.writableEnded && !this.res.destroyed) this.res.write(data);
  };

  private stopHeartbeat(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
