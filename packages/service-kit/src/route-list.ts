import type { Express } from 'express';

/** One entry of {@link listRoutes}: an endpoint (`route`) or a non-router middleware mounted on a path (`mount`). */
export interface MountedRoute {
  /** Upper-case HTTP method; `ALL` for `router.all` and for mounts. */
  method: string;
  /** Full path in express syntax (`/api/agents/:agentId`). */
  path: string;
  /** `route`: a handler for exactly this path; `mount`: middleware that sees this path and everything below it. */
  kind: 'route' | 'mount';
}

interface LayerLike {
  rawPath?: unknown;
  route?: { path: unknown; methods: Record<string, boolean> };
  handle?: { stack?: LayerLike[] };
}

function join(prefix: string, path: string): string {
  const p = `${prefix.replace(/\/+$/, '')}${path === '/' ? '' : path}`;
  return p === '' ? '/' : p;
}

function pathsOf(raw: unknown): string[] {
  const list = Array.isArray(raw) ? (raw.flat(Infinity) as unknown[]) : [raw];
  return list.map((p) => {
    if (typeof p !== 'string')
      throw new Error(`listRoutes: a route path that is not a string (${String(p)}) cannot be listed`);
    return p;
  });
}

function walk(stack: LayerLike[], prefix: string, out: MountedRoute[]): void {
  for (const layer of stack) {
    if (layer.route) {
      const methods = Object.keys(layer.route.methods).filter((m) => layer.route!.methods[m]);
      for (const path of pathsOf(layer.route.path)) {
        for (const m of methods)
          out.push({
            method: m === '_all' ? 'ALL' : m.toUpperCase(),
            path: join(prefix, path),
            kind: 'route',
          });
      }
      continue;
    }
    if (layer.rawPath === undefined)
      throw new Error('listRoutes: this express/router version does not expose Layer.rawPath');
    for (const path of pathsOf(layer.rawPath)) {
      if (Array.isArray(layer.handle?.stack))
        walk(layer.handle.stack, path === '/' ? prefix : join(prefix, path), out);
      else if (path !== '/') out.push({ method: 'ALL', path: join(prefix, path), kind: 'mount' });
      // app-wide middleware (no path) serves no endpoint of its own
    }
  }
}

/**
 * Every endpoint an express 5 app serves, read from its real router stack (nested routers included), for
 * checking an API description against what is actually mounted. Middleware mounted on a path (a proxy, static
 * files, a guard) is listed as a `mount`.
 */
export function listRoutes(app: Express): MountedRoute[] {
  const router = (app as unknown as { router?: { stack: LayerLike[] } }).router;
  if (!router) return [];
  const out: MountedRoute[] = [];
  walk(router.stack, '', out);
  return out;
}
