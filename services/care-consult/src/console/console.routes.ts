import path from 'node:path';
import express, { Router } from 'express';
import type { ConsoleConfig, Static } from '@care/contracts';
import type { AppDeps } from '../app';

/** Folder of the console's static files; the same path from `src/console` and `dist/console`. */
const CONSOLE_PUBLIC_DIR = path.resolve(__dirname, '..', '..', 'public', 'console');

function packageDir(name: string): string {
  return path.dirname(require.resolve(`${name}/package.json`));
}

/**
 * Browser builds of the console's libraries, served from the installed packages (no CDN, no copy to keep in
 * step): marked turns the model's markdown into HTML, DOMPurify sanitises that HTML before it reaches the page.
 * dompurify exports no `package.json`, so its file is found through its main entry.
 */
export const CONSOLE_VENDOR_FILES: Readonly<Record<string, string>> = {
  'marked.umd.js': path.join(packageDir('marked'), 'lib', 'marked.umd.js'),
  'purify.min.js': path.join(path.dirname(require.resolve('dompurify')), 'purify.min.js'),
};

/** The config the console router reads (the service config fits). */

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
export function consoleRoutes(deps: Pick<AppDeps, 'config'>): Router {
  const router = Router();
  const auth = originOf(deps.config.CONSOLE_AUTH_URL);
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
    const body: Static<typeof ConsoleConfig> = { authUrl: deps.config.CONSOLE_AUTH_URL, apiBase: '/api' };
    res.json(body);
  });
  router.get('/console/vendor/:file', (req, res, next) => {
    const file = CONSOLE_VENDOR_FILES[String(req.params.file)];
    if (!file || !Object.hasOwn(CONSOLE_VENDOR_FILES, String(req.params.file))) return next();
    // pnpm keeps packages under node_modules/.pnpm: a dot segment that send() refuses unless told (the path is ours).
    res.type('application/javascript').sendFile(file, { dotfiles: 'allow' });
  });
  // Browsers ask for /favicon.ico on their own; the console's icon is an SVG.
  router.get('/favicon.ico', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.type('image/svg+xml').sendFile(path.join(CONSOLE_PUBLIC_DIR, 'favicon.svg'));
  });
  router.use(
    '/console',
    express.static(CONSOLE_PUBLIC_DIR, { index: 'index.html', redirect: true, fallthrough: true }),
  );
  return router;
}
