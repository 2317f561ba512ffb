import { ConfigError } from '@care/service-kit';
import { configTable } from '@care/service-kit';
import { ConfigSchema, corsOrigins, loadAuthConfig } from '../src/config';

const SECRET = 'x'.repeat(32);
const problems = (env: Record<string, string>): string[] => {
  try {
    loadAuthConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
};

describe('platform-auth configuration', () => {
  it('applies the documented defaults', () => {
    const c = loadAuthConfig({ JWT_SECRET: SECRET });
    expect(c).toMatchObject({
      PORT: 8080,
      AUTH_PROVIDER: 'builtin',
      JWT_TTL_SECONDS: 900,
      JWT_ISSUER: 'care-platform',
      JWT_AUDIENCE: 'care-platform',
      BCRYPT_COST: 12,
      BOOTSTRAP_TENANT_ID: 'platform',
      REFRESH_TOKEN_TTL_SECONDS: 2592000,
      CARE_CONSULT_URL: 'http://127.0.0.1:8000',
    });
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('refuses to start without JWT_SECRET in builtin mode, with a clear message', () => {
    expect(problems({})).toEqual(['JWT_SECRET is required when AUTH_PROVIDER=builtin (at least 32 bytes)']);
  });

  it('refuses a JWT_SECRET shorter than 32 bytes, counting UTF-8 bytes', () => {
    expect(problems({ JWT_SECRET: 'x'.repeat(31) })).toEqual(['JWT_SECRET must be at least 32 bytes']);
    expect(problems({ JWT_SECRET: 'é'.repeat(16) })).toEqual([]);
  });

  it('refuses external mode without its JWKS settings, naming each missing one, and never echoes values', () => {
    expect(problems({ AUTH_PROVIDER: 'external' })).toEqual([
      'AUTH_PROVIDER=external requires AUTH_JWKS_URI, AUTH_ISSUER, AUTH_AUDIENCE',
    ]);
    expect(
      problems({
        AUTH_PROVIDER: 'external',
        AUTH_JWKS_URI: 'https://idp.example/jwks',
        AUTH_ISSUER: 'https://idp.example',
      }),
    ).toEqual(['AUTH_PROVIDER=external requires AUTH_AUDIENCE']);
    expect(
      problems({
        AUTH_PROVIDER: 'external',
        AUTH_JWKS_URI: 'https://idp.example/jwks',
        AUTH_ISSUER: 'i',
        AUTH_AUDIENCE: 'a',
      }),
    ).toEqual([]);
    const msgs = problems({ JWT_SECRET: 'short-secret-value', BCRYPT_COST: '99' });
    expect(msgs.join(' ')).not.toContain('short-secret-value');
  });

  it('refuses bad bcrypt costs, half-set bootstrap credentials, wildcard CORS in prod and mongodb URIs', () => {
    expect(problems({ JWT_SECRET: SECRET, BCRYPT_COST: '3' })[0]).toMatch(/^\/?BCRYPT_COST/);
    expect(problems({ JWT_SECRET: SECRET, BOOTSTRAP_ADMIN_EMAIL: 'a@b.c' })).toEqual([
      'BOOTSTRAP_ADMIN_EMAIL and BOOTSTRAP_ADMIN_PASSWORD must be set together',
    ]);
    expect(
      problems({
        JWT_SECRET: SECRET,
        APP_PROFILES_ACTIVE: 'prod',
        CORS_ALLOWED_ORIGINS: 'https://a.example, *',
      }),
    ).toEqual(['CORS_ALLOWED_ORIGINS must list origins (not `*`) when APP_PROFILES_ACTIVE=prod']);
    expect(problems({ JWT_SECRET: SECRET, DATABASE_URI: 'mongodb://localhost:27017/x' })).toEqual([
      'DATABASE_URI: PostgreSQL is required (mongodb:// is not supported)',
    ]);
  });

  it('starts in prod without CORS_ALLOWED_ORIGINS, allowing no cross-origin browser (any in dev)', () => {
    expect(problems({ JWT_SECRET: SECRET, APP_PROFILES_ACTIVE: 'prod' })).toEqual([]);
    expect(corsOrigins(loadAuthConfig({ JWT_SECRET: SECRET, APP_PROFILES_ACTIVE: 'prod' }))).toEqual([]);
    expect(corsOrigins(loadAuthConfig({ JWT_SECRET: SECRET }))).toEqual(['*']);
    expect(
      corsOrigins(
        loadAuthConfig({
          JWT_SECRET: SECRET,
          APP_PROFILES_ACTIVE: 'prod',
          CORS_ALLOWED_ORIGINS: 'https://a.example',
        }),
      ),
    ).toEqual(['https://a.example']);
  });

  it('describes every variable for the README table', () => {
    const table = configTable(ConfigSchema);
    for (const key of Object.keys(ConfigSchema.properties)) expect(table).toContain(`\`${key}\``);
  });
});
