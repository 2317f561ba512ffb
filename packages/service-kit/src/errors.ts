import type { ErrorRequestHandler, RequestHandler } from 'express';
import { PROBLEM_CONTENT_TYPE, type ValidationIssue } from '@care/contracts';

/** Options of an {@link AppError}. */
export interface AppErrorOptions {
  cause?: unknown;
  errors?: ValidationIssue[];
  /** Extra response headers, e.g. `Retry-After` or `WWW-Authenticate`. */
  headers?: Record<string, string>;
  /** Extra problem members (must not carry secrets). */
  extras?: Record<string, unknown>;
}

/**
 * The one error type that crosses layers. Services throw it; the problem middleware turns it into
 * RFC 9457 problem+json with the stable `code`.
 */
export class AppError extends Error {
  readonly code: string;
  readonly status: number;
  readonly errors?: ValidationIssue[];
  readonly headers: Record<string, string>;
  readonly extras: Record<string, unknown>;

  constructor(code: string, message: string, status = 500, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = status;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
    this.extras = options.extras ?? {};
  }
}

/** 400 with a list of `{pointer, detail}` issues. */
export class ValidationError extends AppError {
  constructor(message: string, errors: ValidationIssue[] = [], code = 'VALIDATION_FAILED') {
    super(code, message, 400, { errors });
  }
}

/** 401; carries `WWW-Authenticate: Bearer` unless told otherwise. */
export class UnauthorizedError extends AppError {
  constructor(message = 'Authentication is required', code = 'UNAUTHENTICATED', challenge = 'Bearer') {
    super(code, message, 401, { headers: challenge ? { 'WWW-Authenticate': challenge } : {} });
  }
}

/** 403. */
export class ForbiddenError extends AppError {
  constructor(message = 'Access is denied', code = 'FORBIDDEN') {
    super(code, message, 403);
  }
}

/** 404. */
export class NotFoundError extends AppError {
  constructor(message = 'Resource not found', code = 'NOT_FOUND') {
    super(code, message, 404);
  }
}

/** 409. */
export class ConflictError extends AppError {
  constructor(message: string, code = 'CONFLICT') {
    super(code, message, 409);
  }
}

/** 429 with `Retry-After` in whole seconds. */
export class TooManyRequestsError extends AppError {
  constructor(retryAfterSeconds: number, message = 'Too many requests', code = 'TOO_MANY_REQUESTS') {
    super(code, message, 429, {
      headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
    });
  }
}

/** 503. */
export class ServiceUnavailableError extends AppError {
  constructor(message = 'Service unavailable', code = 'SERVICE_UNAVAILABLE') {
    super(code, message, 503);
  }
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** Converts any thrown value to an AppError, mapping body-parser's errors to stable codes. */
function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const e = err as {
    type?: string;
    status?: number;
    statusCode?: number;
    message?: string;
    expose?: boolean;
  };
  const status = e?.status ?? e?.statusCode;
  // Express decodes path parameters itself and throws a URIError for bad percent-encoding; the request-target
  // guard normally refuses those first (ADR 0005), this is the backstop for apps mounted without it.
  if (err instanceof URIError) return new AppError('MALFORMED_PATH', 'The request path is malformed', 400);
  if (e?.type === 'entity.parse.failed')
    return new AppError('MALFORMED_JSON', 'The request body is not valid JSON', 400);
  if (e?.type === 'entity.too.large')
    return new AppError('PAYLOAD_TOO_LARGE', 'The request body is too large', 413);
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported')
    return new AppError('UNSUPPORTED_ENCODING', 'The request body encoding is not supported', 415);
  if (typeof status === 'number' && status >= 400 && status < 500 && e.expose)
    return new AppError('BAD_REQUEST', e.message ?? 'Bad request', status);
  return new AppError('INTERNAL', 'An unexpected error occurred', 500, { cause: err });
}

/** Writes a problem+json body for `err` on `res`-like objects; used by the middleware and by streams. */
export function problemBody(err: AppError, requestId?: string, instance?: string): Record<string, unknown> {
  return {
    ...err.extras,
    type: `urn:care:problem:${err.code.toLowerCase().replace(/_/g, '-')}`,
    title: TITLES[err.status] ?? 'Error',
    status: err.status,
    detail: err.message,
    instance,
    code: err.code,
    requestId,
    ...(err.errors ? { errors: err.errors } : {}),
  };
}

/** Final error middleware: problem+json, no stack traces on the wire, only 5xx logged as errors. */
export const problemHandler: ErrorRequestHandler = (err, req, res, next) => {
  if (res.headersSent) return next(err);
  const appErr = toAppError(err);
  const log = (
    req as { log?: { error: (o: unknown, m: string) => void; warn: (o: unknown, m: string) => void } }
  ).log;
  if (appErr.status >= 500) log?.error({ err: appErr.cause ?? appErr, code: appErr.code }, 'request failed');
  // A problem describes this request only (it may name the caller's input or state): no cache keeps it.
  res.setHeader('Cache-Control', 'no-store');
  for (const [k, v] of Object.entries(appErr.headers)) res.setHeader(k, v);
  res
    .status(appErr.status)
    .type(PROBLEM_CONTENT_TYPE)
    .send(JSON.stringify(problemBody(appErr, String(req.id ?? ''), req.originalUrl.split('?')[0])));
};

/** 404 for any route nobody answered. */
export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new NotFoundError(`No route for ${req.method} ${req.path}`, 'ROUTE_NOT_FOUND'));
};
