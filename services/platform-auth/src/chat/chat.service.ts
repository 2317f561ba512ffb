import http from 'node:http';
import https from 'node:https';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError, requestIdOf, tenantOf, type Logger } from '@care/service-kit';
import type { TenantConfigService } from '../tenant-config/tenant-config.service';

/** Dependencies of {@link ChatService}. */
interface ChatServiceDeps {
  /** care-consult base URL, e.g. http://127.0.0.1:8000. */
  upstream: string;
  /** How long to wait for the upstream's response headers. */
  headersTimeoutMs: number;
  logger: Logger;
  /** Registers open streams so a graceful shutdown can end them (set `track` to startServer's trackStream). */
  streams?: StreamRegistry;
  /**
   * Where the tenant's chat defaults come from (ADR 0108): `allowClinical` from the tenant setting
   * `chat.allowClinical`, applied to a consultation that does not set `allow_clinical` itself (the request's own
   * value always wins).
   */
  tenantConfig?: Pick<TenantConfigService, 'settingsOf'>;
}

/** Late-bound hook to the server's stream tracking: the app is built before the server starts. */
export interface StreamRegistry {
  track?: (end: () => void) => () => void;
}

// RFC 9110 section 7.6.1 hop-by-hop fields, plus host and the length (recomputed when the body is re-sent).
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
]);

function forwardHeaders(req: Request, bodyLength: number | undefined): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  const listed = new Set(
    String(req.headers.connection ?? '')
      .toLowerCase()
      .split(',')
      .map((s) => s.trim()),
  );
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined || HOP_BY_HOP.has(k) || listed.has(k)) continue;
    if (bodyLength !== undefined && (k === 'content-length' || k === 'content-encoding')) continue;
    out[k] = v;
  }
  if (bodyLength !== undefined) {
    out['content-length'] = bodyLength;
    out['content-type'] = 'application/json';
  }
  out['x-request-id'] = requestIdOf(req);
  const prior = req.headers['x-forwarded-for'];
  out['x-forwarded-for'] = prior
    ? `${String(prior)}, ${req.socket.remoteAddress ?? ''}`
    : (req.socket.remoteAddress ?? '');
  out['x-forwarded-proto'] = req.protocol;
  return out;
}

function fail(res: Response, next: (err: unknown) => void, err: AppError): void {
  if (res.headersSent) res.destroy(err);
  else next(err);
}

/**
 * Forwards `/api/v1/chat/**` to care-consult `/api/chat/**` and streams the answer back unbuffered: headers
 * are flushed as soon as they arrive and every chunk (SSE frame) is written as it comes, with Nagle off.
 * The caller's bearer token goes along; care-consult verifies it with the same settings. A client that goes
 * away cancels the upstream request.
 */
export class ChatService {
  private readonly base: URL;
  private readonly client: typeof http | typeof https;
  private readonly basePath: string;

  constructor(private readonly d: ChatServiceDeps) {
    this.base = new URL(d.upstream);
    this.client = this.base.protocol === 'https:' ? https : http;
    this.basePath = this.base.pathname.replace(/\/+$/, '');
  }

  /** The proxy handler: a consultation without `allow_clinical` gets the tenant's default first. */
  readonly handle: RequestHandler = (req, res, next) => {
    const body = req.body as Record<string, unknown> | undefined;
    const consultation = req.method === 'POST' && /^\/api\/v1\/chat\/?(\?|$)/i.test(req.originalUrl);
    const tenantConfig = this.d.tenantConfig;
    if (
      !tenantConfig ||
      !consultation ||
      !body ||
      typeof body !== 'object' ||
      Array.isArray(body) ||
      body.allow_clinical !== undefined
    ) {
      this.forward(req, res, next);
      return;
    }
    tenantConfig.settingsOf(tenantOf(req)).then((settings) => {
      const allow = settings['chat.allowClinical'];
      if (typeof allow === 'boolean') body.allow_clinical = allow;
      this.forward(req, res, next);
    }, next);
  };

  private forward(req: Request, res: Response, next: NextFunction): void {
    const { base, basePath, d } = this;
    // originalUrl starts with /api/v1/chat (any case): the access pipeline only lets canonical paths through.
    const q = req.originalUrl.indexOf('?');
    const rawPath = q < 0 ? req.originalUrl : req.originalUrl.slice(0, q);
    // Trailing slashes beyond one are what Express ignores; do not pass them on.
    const rest = rawPath.slice('/api/v1/chat'.length).replace(/\/{2,}$/, '/');
    const path = `${basePath}/api/chat${rest}${q < 0 ? '' : req.originalUrl.slice(q)}`;
    // express.json() has already read a JSON body (it sets req.body only then): send it on re-serialised.
    // Any other body is still unread and is piped through as it is.
    const body = req.body !== undefined ? Buffer.from(JSON.stringify(req.body)) : undefined;
    const upstreamReq = this.client.request({
      protocol: base.protocol,
      hostname: base.hostname,
      port: base.port,
      method: req.method,
      path,
      headers: forwardHeaders(req, body?.length),
    });
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      upstreamReq.destroy();
      fail(res, next, new AppError('UPSTREAM_TIMEOUT', 'The chat service did not answer in time', 504));
    }, d.headersTimeoutMs);
    upstreamReq.on('response', (up) => {
      settled = true;
      clearTimeout(timer);
      const headers: http.OutgoingHttpHeaders = {};
      for (const [k, v] of Object.entries(up.headers))
        if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = v;
      headers['x-accel-buffering'] = 'no';
      res.socket?.setNoDelay(true);
      res.writeHead(up.statusCode ?? 502, headers);
      res.flushHeaders();
      // On shutdown the stream is ended cleanly instead of being cut when the drain timeout expires.
      const untrack = d.streams?.track?.(() => {
        upstreamReq.destroy();
        res.end();
      });
      if (untrack) res.on('close', untrack);
      up.pipe(res);
      up.on('error', () => res.destroy());
    });
    upstreamReq.on('error', (err) => {
      clearTimeout(timer);
      if (res.writableEnded || res.destroyed) return;
      if (settled) {
        // Broken mid-stream: end the client's stream too rather than leave it hanging.
        if (res.headersSent) res.destroy();
        return;
      }
      settled = true;
      d.logger.warn({ err: err.message }, 'chat upstream request failed');
      fail(res, next, new AppError('UPSTREAM_UNAVAILABLE', 'The chat service is unavailable', 502));
    });
    res.on('close', () => {
      clearTimeout(timer);
      if (!res.writableFinished) upstreamReq.destroy();
    });
    if (body) upstreamReq.end(body);
    else req.pipe(upstreamReq);
  }
}
