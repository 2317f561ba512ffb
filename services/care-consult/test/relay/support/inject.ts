import http from 'node:http';

/** What an injected request answered. */
export interface InjectedAnswer {
  status: number;
  location?: string;
  cacheControl?: string;
  contentType?: string;
  body: string;
}

// Enough of a socket for IncomingMessage, express's req.ip and helmet/cors: nothing is read from or written to it.
const FAKE_SOCKET = { remoteAddress: '127.0.0.1', encrypted: false, readableHighWaterMark: 16_384 };

/**
 * Runs one GET through an express app in process: a real http.IncomingMessage and http.ServerResponse, no
 * socket, so every middleware runs as in production but the HTTP parsing and loopback I/O (3-4 times the cost
 * of the app itself on a loaded machine) are skipped. `end()` is where the answer is read; a handler that never
 * answers leaves the promise pending and the test times out, which is a failure too.
 */
export function injectGet(app: http.RequestListener, target: string): Promise<InjectedAnswer> {
  return new Promise((resolve, reject) => {
    const req = new http.IncomingMessage(FAKE_SOCKET as never);
    req.method = 'GET';
    req.url = target;
    req.headers = { host: '127.0.0.1' };
    req.httpVersionMajor = 1;
    req.httpVersionMinor = 1;
    req.httpVersion = '1.1';
    req.push(null);
    const res = new http.ServerResponse(req);
    res.end = function end(this: http.ServerResponse, chunk?: unknown) {
      const header = (name: string) => {
        const v = this.getHeader(name);
        return v === undefined ? undefined : String(v);
      };
      resolve({
        status: this.statusCode,
        location: header('location'),
        cacheControl: header('cache-control'),
        contentType: header('content-type'),
        body: typeof chunk === 'string' || Buffer.isBuffer(chunk) ? chunk.toString() : '',
      });
      return this;
    } as typeof res.end;
    try {
      app(req, res);
    } catch (err) {
      reject(err);
    }
  });
}
