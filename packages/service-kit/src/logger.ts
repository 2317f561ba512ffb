import pino, { type Logger, type LoggerOptions } from 'pino';

/** Paths pino redacts everywhere: credentials, tokens and bodies never reach the logs. */
const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.passwordHash',
  '*.token',
  '*.idToken',
  '*.refreshToken',
  '*.secret',
  '*.authorizationCode',
  '*.content',
];

/** Options of {@link createLogger}. */
export interface CreateLoggerOptions {
  name: string;
  level?: string;
  /** Where to write; defaults to stdout. Tests pass a stream to read what was logged. */
  destination?: pino.DestinationStream;
}

/** A JSON pino logger with the platform's redaction list. */
export function createLogger(options: CreateLoggerOptions): Logger {
  const opts: LoggerOptions = {
    name: options.name,
    level: options.level ?? 'info',
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: { service: options.name },
  };
  return options.destination ? pino(opts, options.destination) : pino(opts);
}

export type { Logger };
