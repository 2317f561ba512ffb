import fc from 'fast-check';
import { canonicalizePath } from '../src/security/path-canonical';
import { ScopeMap, type ScopeMappingRow } from '../src/security/scope-map';

const SEED: ScopeMappingRow[] = [
  { path: '/api/v1/chat/**', method: 'ALL', requiredScope: 'chat:access' },
  { path: '/api/v1/workflow/**', method: 'ALL', requiredScope: 'workflow:access' },
  { path: '/api/v1/kb/**', method: 'ALL', requiredScope: 'kb:access' },
  { path: '/api/v1/config/**', method: 'PATCH', requiredScope: 'admin:config' },
  { path: '/api/v1/users/**', method: 'ALL', requiredScope: 'admin:users' },
  { path: '/api/v1/tenants/**', method: 'ALL', requiredScope: 'platform:admin' },
  { path: '/api/v1/chat/**', method: 'GET', requiredScope: 'chat:read' },
  { path: '/api/v1/workflow/**', method: 'GET', requiredScope: 'workflow:read' },
  { path: '/api/v1/kb/**', method: 'GET', requiredScope: 'kb:read' },
  { path: '/api/v1/config/**', method: 'GET', requiredScope: 'config:read' },
];

const segment = fc.stringMatching(/^[a-z0-9_-]{1,12}$/);

describe('canonicalizePath', () => {
  it('lower-cases, decodes and strips trailing slashes', () => {
    expect(canonicalizePath('/API/V1/Users/')).toEqual({ ok: true, path: '/api/v1/users' });
    expect(canonicalizePath('/api/v1/%75sers//')).toEqual({ ok: true, path: '/api/v1/users' });
    expect(canonicalizePath('/')).toEqual({ ok: true, path: '/' });
  });

  it.each([
    '/a/../b',
    '/a/./b',
    '/a/%2e%2E/b',
    '/a/%2E/b',
    '/a//b',
    '/a%2fb',
    '/a%5Cb',
    '/a\\b',
    '/a;b',
    '/a/%252e',
    '/a/%00',
    '/a/%zz',
    'a/b',
    '/a/%0a',
  ])('refuses %s', (raw) => {
    expect(canonicalizePath(raw).ok).toBe(false);
  });

  it('maps any path of plain segments to its lower-case form, whatever the trailing slashes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[A-Za-z0-9_-]{1,10}$/), { minLength: 1, maxLength: 6 }),
        fc.nat(3),
        (segs, slashes) => {
          const raw = `/${segs.join('/')}${'/'.repeat(slashes)}`;
          expect(canonicalizePath(raw)).toEqual({ ok: true, path: `/${segs.join('/')}`.toLowerCase() });
        },
      ),
    );
  });

  it('never lets a dot segment, encoded or not, through', () => {
    const dot = fc.constantFrom('..', '.', '%2e%2e', '%2E%2e', '%2e', '.%2e', '%2e.');
    fc.assert(
      fc.property(
        fc.array(segment, { maxLength: 3 }),
        dot,
        fc.array(segment, { maxLength: 3 }),
        (before, d, after) => {
          expect(canonicalizePath(`/${[...before, d, ...after].join('/')}`).ok).toBe(false);
        },
      ),
    );
  });

  it('outputs only paths without empty or dot segments', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (tail) => {
        const r = canonicalizePath(`/${tail}`);
        if (!r.ok || r.path === '/') return;
        for (const s of r.path.slice(1).split('/')) {
          expect(s).not.toBe('');
          expect(['.', '..']).not.toContain(s);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('ScopeMap', () => {
  const map = new ScopeMap(SEED);
  const scope = (method: string, path: string) => map.find(method, path)?.requiredScope;

  it.each([
    ['GET', '/api/v1/config', 'config:read'],
    ['PATCH', '/api/v1/config', 'admin:config'],
    ['POST', '/api/v1/config', undefined],
    ['DELETE', '/api/v1/config/x', undefined],
    ['GET', '/api/v1/kb/documents', 'kb:read'],
    ['HEAD', '/api/v1/kb/documents', 'kb:read'],
    ['POST', '/api/v1/kb/documents', 'kb:access'],
    ['OPTIONS', '/api/v1/kb', 'kb:access'],
    ['GET', '/api/v1/chat', 'chat:read'],
    ['POST', '/api/v1/chat', 'chat:access'],
    ['GET', '/api/v1/users', 'admin:users'],
    ['DELETE', '/api/v1/users/abc', 'admin:users'],
    ['GET', '/api/v1/tenants/x/audit-events', 'platform:admin'],
    ['GET', '/api/v1/usersx', undefined],
    ['GET', '/api/v1', undefined],
    ['GET', '/', undefined],
  ])('%s %s needs %s', (method, path, expected) => {
    expect(scope(method, path)).toBe(expected);
  });

  it('prefers the most specific path over a method-specific row of a broader one, then method over ALL', () => {
    const m = new ScopeMap([
      ...SEED,
      { path: '/api/v1/kb/admin/**', method: 'ALL', requiredScope: 'admin:config' },
      { path: '/api/v1/kb/*/export', method: 'GET', requiredScope: 'platform:admin' },
      { path: '/api/v1/kb/reports/export', method: 'ALL', requiredScope: 'admin:users' },
    ]);
    expect(m.find('GET', '/api/v1/kb/admin/x')?.requiredScope).toBe('admin:config');
    expect(m.find('GET', '/api/v1/kb/docs/export')?.requiredScope).toBe('platform:admin');
    expect(m.find('POST', '/api/v1/kb/docs/export')?.requiredScope).toBe('kb:access');
    expect(m.find('GET', '/api/v1/kb/reports/export')?.requiredScope).toBe('admin:users');
  });

  it('maps every method on every path under /api/v1/users to admin:users', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
        fc.array(segment, { maxLength: 5 }),
        (method, rest) => {
          expect(scope(method, ['/api/v1/users', ...rest].join('/'))).toBe('admin:users');
        },
      ),
    );
  });

  it('refuses unsupported patterns and methods when built', () => {
    expect(() => new ScopeMap([{ path: '/a/**/b', method: 'ALL', requiredScope: 's' }])).toThrow();
    expect(() => new ScopeMap([{ path: '/a/b*', method: 'ALL', requiredScope: 's' }])).toThrow();
    expect(() => new ScopeMap([{ path: 'a', method: 'ALL', requiredScope: 's' }])).toThrow();
    expect(() => new ScopeMap([{ path: '/a', method: 'TRACE', requiredScope: 's' }])).toThrow();
    expect(() => new ScopeMap([{ path: '/a', method: 'GET', requiredScope: '' }])).toThrow();
  });
});
