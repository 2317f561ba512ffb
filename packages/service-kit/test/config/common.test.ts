// The shared config fields and rules: names, defaults and checks every service gets by spreading them, the two
// AUTH_PROVIDER defaults, the messages of the cross-field rules, and loadConfigOrExit's stderr + exit 1.
import { Type } from '@care/contracts';
import {
  ConfigError,
  loadConfig,
  loadConfigOrExit,
  serviceConfigFields,
  serviceConfigRules,
  tokenVerificationConfigFields,
  tokenVerificationRules,
} from '../../src';

const SECRET = 'a-jwt-secret-of-at-least-thirty-two-bytes';

const Strict = Type.Object({
  ...serviceConfigFields({ port: 8080, dataDir: '.data/svc', descriptions: { PORT: 'the port' } }),
  ...tokenVerificationConfigFields({ defaultProvider: 'builtin' }),
});
const strictRules = [
  ...serviceConfigRules({ refuseWildcardCorsInProd: true }),
  ...tokenVerificationRules({ secretRequired: 'builtin' }),
];
const problems = (env: Record<string, string>) => {
  try {
    loadConfig(Strict, env, strictRules);
    return [];
  } catch (err) {
    return (err as ConfigError).problems;
  }
};

describe('serviceConfigFields', () => {
  it('declares the shared variables with their defaults, the per-service ones from the arguments', () => {
    const c = loadConfig(Strict, { JWT_SECRET: SECRET });
    expect(c).toEqual({
      PORT: 8080,
      APP_PROFILES_ACTIVE: 'dev',
      LOG_LEVEL: 'info',
      TRUST_PROXY: 'false',
      DATA_DIR: '.data/svc',
      SHUTDOWN_TIMEOUT_MS: 10000,
      AUTH_PROVIDER: 'builtin',
      JWT_SECRET: SECRET,
      JWT_ISSUER: 'care-platform',
      JWT_AUDIENCE: 'care-platform',
    });
    expect(Object.keys(Strict.properties)).toEqual(
      expect.arrayContaining([
        'MANAGEMENT_PORT',
        'CORS_ALLOWED_ORIGINS',
        'DATABASE_URI',
        'SHUTDOWN_DRAIN_MS',
      ]),
    );
    expect(Strict.properties.PORT.description).toBe('the port');
    expect(Strict.properties.DATA_DIR.description).toMatch(/embedded database/);
  });

  it('checks ports, profile and shutdown bounds', () => {
    expect(problems({ JWT_SECRET: SECRET, PORT: '65536' })[0]).toMatch(/^PORT/);
    expect(problems({ JWT_SECRET: SECRET, MANAGEMENT_PORT: '-1' })[0]).toMatch(/^MANAGEMENT_PORT/);
    expect(problems({ JWT_SECRET: SECRET, APP_PROFILES_ACTIVE: 'staging' })[0]).toMatch(
      /^APP_PROFILES_ACTIVE/,
    );
    expect(problems({ JWT_SECRET: SECRET, SHUTDOWN_DRAIN_MS: '-5' })[0]).toMatch(/^SHUTDOWN_DRAIN_MS/);
    expect(loadConfig(Strict, { JWT_SECRET: SECRET, PORT: '0', SHUTDOWN_DRAIN_MS: '0' })).toMatchObject({
      PORT: 0,
      SHUTDOWN_DRAIN_MS: 0,
    });
  });
});

describe('serviceConfigRules', () => {
  it('refuses mongodb URIs, and `*` CORS in prod only when asked to', () => {
    expect(problems({ JWT_SECRET: SECRET, DATABASE_URI: 'mongodb+srv://h/x' })).toEqual([
      'DATABASE_URI: PostgreSQL is required (mongodb:// is not supported)',
    ]);
    expect(
      problems({
        JWT_SECRET: SECRET,
        APP_PROFILES_ACTIVE: 'prod',
        CORS_ALLOWED_ORIGINS: 'https://a.example, *',
      }),
    ).toEqual(['CORS_ALLOWED_ORIGINS must list origins (not `*`) when APP_PROFILES_ACTIVE=prod']);
    expect(problems({ JWT_SECRET: SECRET, CORS_ALLOWED_ORIGINS: '*' })).toEqual([]);
    const lenient = serviceConfigRules({ refuseWildcardCorsInProd: false });
    expect(
      lenient.map((r) => r({ APP_PROFILES_ACTIVE: 'prod', CORS_ALLOWED_ORIGINS: '*' })).filter(Boolean),
    ).toEqual([]);
  });
});

describe('tokenVerificationConfigFields and rules', () => {
  it('requires the secret in builtin mode, counting UTF-8 bytes', () => {
    expect(problems({})).toEqual(['JWT_SECRET is required when AUTH_PROVIDER=builtin (at least 32 bytes)']);
    expect(problems({ JWT_SECRET: 'x'.repeat(31) })).toEqual(['JWT_SECRET must be at least 32 bytes']);
    expect(problems({ JWT_SECRET: 'é'.repeat(16) })).toEqual([]);
  });

  it('names what external mode is missing, and checks the JWKS URI', () => {
    expect(problems({ AUTH_PROVIDER: 'external' })).toEqual([
      'AUTH_PROVIDER=external requires AUTH_JWKS_URI, AUTH_ISSUER, AUTH_AUDIENCE',
    ]);
    expect(
      problems({ AUTH_PROVIDER: 'external', AUTH_JWKS_URI: 'https://idp.example/jwks', AUTH_ISSUER: 'i' }),
    ).toEqual(['AUTH_PROVIDER=external requires AUTH_AUDIENCE']);
    expect(
      problems({
        AUTH_PROVIDER: 'external',
        AUTH_JWKS_URI: 'not a uri',
        AUTH_ISSUER: 'i',
        AUTH_AUDIENCE: 'a',
      })[0],
    ).toMatch(/^AUTH_JWKS_URI/);
  });

  it('leaves AUTH_PROVIDER unset without a default (tokens then verified only with a secret)', () => {
    const Lenient = Type.Object({
      ...serviceConfigFields({ port: 7070, dataDir: '.data/m' }),
      ...tokenVerificationConfigFields(),
    });
    const rules = tokenVerificationRules({ secretRequired: 'builtin' });
    expect(loadConfig(Lenient, {}, rules).AUTH_PROVIDER).toBeUndefined();
    expect(() => loadConfig(Lenient, { AUTH_PROVIDER: 'builtin' }, rules)).toThrow(/JWT_SECRET is required/);
  });

  it("with secretRequired: 'prod', a builtin service starts without a secret in dev only", () => {
    const Schema = Type.Object({
      ...serviceConfigFields({ port: 8000, dataDir: '.data/c' }),
      ...tokenVerificationConfigFields({ defaultProvider: 'builtin' }),
    });
    const rules = tokenVerificationRules({ secretRequired: 'prod' });
    expect(loadConfig(Schema, {}, rules).JWT_SECRET).toBeUndefined();
    expect(() => loadConfig(Schema, { APP_PROFILES_ACTIVE: 'prod' }, rules)).toThrow(
      /JWT_SECRET is required in prod \(AUTH_PROVIDER=builtin\)/,
    );
  });
});

describe('loadConfigOrExit', () => {
  it('returns the config when it loads', () => {
    expect(loadConfigOrExit(() => ({ PORT: 1 }))).toEqual({ PORT: 1 });
  });

  it('prints a ConfigError message to stderr and exits 1, other errors are rethrown', () => {
    const error = jest.fn();
    const exit = jest.fn((code: number) => {
      throw new Error(`exit ${code}`);
    }) as unknown as (code: number) => never;
    expect(() => loadConfigOrExit(() => loadConfig(Strict, {}, strictRules), { error, exit })).toThrow(
      'exit 1',
    );
    expect(error).toHaveBeenCalledWith(
      'Invalid configuration:\n  - JWT_SECRET is required when AUTH_PROVIDER=builtin (at least 32 bytes)',
    );
    expect(() =>
      loadConfigOrExit(
        () => {
          throw new TypeError('boom');
        },
        { error, exit },
      ),
    ).toThrow(TypeError);
    expect(error).toHaveBeenCalledTimes(1);
  });

  it('uses process.exit and console.error by default', () => {
    const exit = jest.spyOn(process, 'exit').mockImplementation(((code: number) => {
      throw new Error(`exit ${code}`);
    }) as never);
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(() => loadConfigOrExit(() => loadConfig(Strict, { PORT: 'x', JWT_SECRET: SECRET }))).toThrow(
        'exit 1',
      );
      expect(exit).toHaveBeenCalledWith(1);
      expect(error.mock.calls[0]![0]).toMatch(/^Invalid configuration:\n {2}- PORT/);
    } finally {
      exit.mockRestore();
      error.mockRestore();
    }
  });
});
