import express, { Router } from 'express';
import { listRoutes } from '../src/route-list';
import { compareRoutes } from '../src/testing/openapi';

function app() {
  const a = express();
  a.use(express.json());
  a.get('/livez', (_req, res) => res.end());
  const inner = Router();
  inner.use((_req, _res, next) => next()); // a guard, no endpoint
  inner.get('/items/:id', (_req, res) => res.end());
  inner
    .route('/items')
    .get((_req, res) => res.end())
    .post((_req, res) => res.end());
  const api = Router();
  api.use(inner); // mounted without a path
  api.use(
    '/nested',
    Router().delete('/x', (_req, res) => res.end()),
  );
  a.use('/api', api);
  a.use('/proxy', (_req, res) => res.end());
  a.use(
    ['/a', '/b'],
    Router().put('/', (_req, res) => res.end()),
  );
  return a;
}

describe('listRoutes', () => {
  it('lists the endpoints of nested routers with their full paths, and path mounts', () => {
    expect(listRoutes(app())).toEqual([
      { method: 'GET', path: '/livez', kind: 'route' },
      { method: 'GET', path: '/api/items/:id', kind: 'route' },
      { method: 'GET', path: '/api/items', kind: 'route' },
      { method: 'POST', path: '/api/items', kind: 'route' },
      { method: 'DELETE', path: '/api/nested/x', kind: 'route' },
      { method: 'ALL', path: '/proxy', kind: 'mount' },
      { method: 'PUT', path: '/a', kind: 'route' },
      { method: 'PUT', path: '/b', kind: 'route' },
    ]);
  });
});

describe('compareRoutes', () => {
  const op = { responses: {} };
  const doc = {
    paths: {
      '/livez': { get: op },
      '/api/items/{id}': { get: op },
      '/api/items': { get: op, post: op },
      '/api/nested/x': { delete: op },
      '/proxy/anything': { get: op },
      '/a': { put: op },
      '/b': { put: op },
    },
  };

  it('is clean when the document matches', () => {
    expect(compareRoutes(listRoutes(app()), doc)).toEqual({ undocumented: [], unmounted: [] });
  });

  it('reports routes missing from the document, and a mount with nothing documented below it', () => {
    const { '/api/items': _gone, '/proxy/anything': _p, ...rest } = doc.paths;
    expect(compareRoutes(listRoutes(app()), { paths: rest })).toEqual({
      undocumented: ['ALL /proxy/**', 'GET /api/items', 'POST /api/items'],
      unmounted: [],
    });
  });

  it('reports documented operations nothing serves, even below a guard of a router', () => {
    const routes = [...listRoutes(app()), { method: 'ALL', path: '/api', kind: 'mount' as const }];
    const extra = {
      paths: { ...doc.paths, '/api/ghost': { get: op }, '/api/items/{id}': { get: op, patch: op } },
    };
    expect(compareRoutes(routes, extra).unmounted).toEqual(['GET /api/ghost', 'PATCH /api/items/:id']);
  });
});
