import { corsOrigins, listenHost, loadMemoryConfig } from '../src/config';

describe('PGLITE_SHARED_BUFFERS', () => {
  it('is unset by default (PostgreSQL keeps 128MB) and takes any PostgreSQL size with a unit', () => {
    expect(loadMemoryConfig({}).PGLITE_SHARED_BUFFERS).toBeUndefined();
    expect(loadMemoryConfig({ PGLITE_SHARED_BUFFERS: '128MB' }).PGLITE_SHARED_BUFFERS).toBe('128MB');
    expect(loadMemoryConfig({ PGLITE_SHARED_BUFFERS: '1GB' }).PGLITE_SHARED_BUFFERS).toBe('1GB');
  });

  it.each(['512', '512 mb', '0MB', '512MB;fsync=off'])('refuses %j naming the variable', (value) => {
    expect(() => loadMemoryConfig({ PGLITE_SHARED_BUFFERS: value })).toThrow(/PGLITE_SHARED_BUFFERS/);
  });
});

describe('secure defaults (ADR 0007)', () => {
  const KEY = 'a-very-long-test-api-key-0123456789';
  const SECRET = 'a-jwt-secret-of-at-least-thirty-two-bytes';

  it('listens on loopback in dev and on every interface in prod, unless HOST says otherwise', () => {
    expect(listenHost(loadMemoryConfig({}))).toBe('127.0.0.1');
    expect(listenHost(loadMemoryConfig({ APP_PROFILES_ACTIVE: 'prod', API_KEY: KEY }))).toBe('0.0.0.0');
    expect(listenHost(loadMemoryConfig({ HOST: '10.0.0.5' }))).toBe('10.0.0.5');
  });

  it('refuses prod without a key or token verification, and with a wildcard CORS origin', () => {
    expect(() => loadMemoryConfig({ APP_PROFILES_ACTIVE: 'prod' })).toThrow(/API_KEY/);
    expect(() =>
      loadMemoryConfig({ APP_PROFILES_ACTIVE: 'prod', API_KEY: KEY, CORS_ALLOWED_ORIGINS: '*' }),
    ).toThrow(/CORS_ALLOWED_ORIGINS/);
    expect(loadMemoryConfig({ APP_PROFILES_ACTIVE: 'prod', JWT_SECRET: SECRET }).JWT_SECRET).toBe(SECRET);
  });

  it('reflects no origin in prod unless listed, and any in dev', () => {
    expect(corsOrigins(loadMemoryConfig({ APP_PROFILES_ACTIVE: 'prod', API_KEY: KEY }))).toEqual([]);
    expect(
      corsOrigins(
        loadMemoryConfig({
          APP_PROFILES_ACTIVE: 'prod',
          API_KEY: KEY,
          CORS_ALLOWED_ORIGINS: 'https://a.example',
        }),
      ),
    ).toEqual(['https://a.example']);
    expect(corsOrigins(loadMemoryConfig({}))).toEqual(['*']);
  });
});
