import path from 'node:path';
import express, { Router } from 'express';

/** Folder of the console's static files; the same path from `src/console` and `dist/console`. */
export const CONSOLE_PUBLIC_DIR = path.resolve(__dirname, '..', '..', 'public', 'console');

/** The config the console router reads (the service config fits). */
export interface ConsoleSettings {
  CONSOLE_AUTH_URL?: string;
}

function originOf(url: string | undefined): string | undefined {
  try {
    return url ? new URL(url).origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `GET /console`: the consultation console, plain HTML/JS/CSS with no build step. Its own strict CSP: scripts
 * and styles from this origin only, and network calls to this origin plus the configured platform-auth
 * (email/password sign-in). It holds no secret; it calls `/api` with the token the person signs in with.
 */
export function createConsoleRouter(settings: ConsoleSettings): Router {
  const router = Router();
  const auth = originOf(settings.CONSOLE_AUTH_URL);
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self'${auth ? ` ${auth}` : ''}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "object-src 'none'",
  ].join('; ');
  router.use('/console', (_req, res, next) => {
    res.setHeader('Content-Security-Policy', csp);
    res.setHeader('Cache-Control', 'no-cache');
    next();
  });
  router.get('/console/config.json', (_req, res) => {
    res.json({ authUrl: settings.CONSOLE_AUTH_URL ?? null, apiBase: '/api' });
  });
  router.use('/console', express.static(CONSOLE_PUBLIC_DIR, { index: 'index.html', redirect: true, fallthrough: true }));
  return router;
}
