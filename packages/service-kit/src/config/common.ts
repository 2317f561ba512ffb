import { Type } from '@care/contracts';
import { csv, type ConfigRule } from './load-config';

const Profile = Type.Union([Type.Literal('dev'), Type.Literal('prod')]);
const Provider = Type.Union([Type.Literal('builtin'), Type.Literal('external')]);

/** Names of the variables {@link serviceConfigFields} declares. */
export type ServiceConfigKey =
  | 'PORT'
  | 'MANAGEMENT_PORT'
  | 'APP_PROFILES_ACTIVE'
  | 'LOG_LEVEL'
  | 'CORS_ALLOWED_ORIGINS'
  | 'TRUST_PROXY'
  | 'DATABASE_URI'
  | 'DATA_DIR'
  | 'SHUTDOWN_TIMEOUT_MS'
  | 'SHUTDOWN_DRAIN_MS';

/** Options of {@link serviceConfigFields}: the per-service defaults, and README texts where a service says more. */
export interface ServiceConfigOptions {
  /** Default `PORT`. */
  port: number;
  /** Default `DATA_DIR` (folder of the embedded database). */
  dataDir: string;
  /** Replaces the README description of a variable (meaning only: names, defaults and checks stay shared). */
  descriptions?: Partial<Record<ServiceConfigKey, string>>;
}

/**
 * The variables every service reads with the same meaning, defaults and checks: listen port, profile, logging,
 * CORS, proxy trust, database, management port and graceful shutdown (ADR 0007, 0009, 0012). Spread into the
 * service's TypeBox config schema; {@link serviceConfigRules} holds their cross-field checks.
 */
export function serviceConfigFields(options: ServiceConfigOptions) {
  const d = (key: ServiceConfigKey, text: string) => options.descriptions?.[key] ?? text;
  return {
    PORT: Type.Integer({
      minimum: 0,
      maximum: 65535,
      default: options.port,
      description: d('PORT', 'HTTP port'),
    }),
    MANAGEMENT_PORT: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 65535,
        description: d(
          'MANAGEMENT_PORT',
          "port of the operators' listener serving only `/actuator/prometheus` and `/actuator/health/liveness` (ADR 0012); unset: metrics on the API port in dev, none in prod",
        ),
      }),
    ),
    APP_PROFILES_ACTIVE: Type.Union(Profile.anyOf, {
      default: 'dev',
      description: d('APP_PROFILES_ACTIVE', '`dev` or `prod`; `prod` refuses to start without its secrets'),
    }),
    LOG_LEVEL: Type.String({
      default: 'info',
      description: d('LOG_LEVEL', 'pino level: fatal, error, warn, info, debug, trace'),
    }),
    CORS_ALLOWED_ORIGINS: Type.Optional(
      Type.String({
        description: d(
          'CORS_ALLOWED_ORIGINS',
          'comma list of allowed browser origins; unset: any origin in dev, none in prod',
        ),
      }),
    ),
    TRUST_PROXY: Type.String({
      default: 'false',
      description: d(
        'TRUST_PROXY',
        'Express `trust proxy`: `false`, `true`, a hop count or a comma list of addresses/CIDRs (ADR 0009)',
      ),
    }),
    DATABASE_URI: Type.Optional(
      Type.String({
        description: d(
          'DATABASE_URI',
          'unset: embedded PGlite under DATA_DIR; `pglite://memory`: ephemeral; `postgres://...`: a server',
        ),
      }),
    ),
    DATA_DIR: Type.String({
      default: options.dataDir,
      description: d('DATA_DIR', 'folder of the embedded database (when DATABASE_URI is unset)'),
    }),
    SHUTDOWN_TIMEOUT_MS: Type.Integer({
      minimum: 0,
      default: 10000,
      description: d('SHUTDOWN_TIMEOUT_MS', 'upper bound of the graceful shutdown after the listener closed'),
    }),
    SHUTDOWN_DRAIN_MS: Type.Optional(
      Type.Integer({
        minimum: 0,
        description: d(
          'SHUTDOWN_DRAIN_MS',
          'on SIGTERM, how long to keep serving with readiness down before the listener closes; default 5000 in prod, 0 in dev (ADR 0007)',
        ),
      }),
    ),
  };
}

/** The shared variables' values the rules read. */
interface ServiceConfigValues {
  APP_PROFILES_ACTIVE?: 'dev' | 'prod';
  CORS_ALLOWED_ORIGINS?: string;
  DATABASE_URI?: string;
}

/**
 * Cross-field checks of {@link serviceConfigFields}: a mongodb URI is refused; with `refuseWildcardCorsInProd`,
 * `*` among the CORS origins is refused in prod (ADR 0007, 0011).
 */
export function serviceConfigRules(options: {
  refuseWildcardCorsInProd: boolean;
}): ConfigRule<ServiceConfigValues>[] {
  const rules: ConfigRule<ServiceConfigValues>[] = [
    (c) =>
      typeof c.DATABASE_URI === 'string' &&
      /^mongodb(\+srv)?:/i.test(c.DATABASE_URI) &&
      'DATABASE_URI: PostgreSQL is required (mongodb:// is not supported)',
  ];
  if (options.refuseWildcardCorsInProd) {
    rules.push(
      (c) =>
        c.APP_PROFILES_ACTIVE === 'prod' &&
        csv(c.CORS_ALLOWED_ORIGINS).includes('*') &&
        'CORS_ALLOWED_ORIGINS must list origins (not `*`) when APP_PROFILES_ACTIVE=prod',
    );
  }
  return rules;
}

/** Names of the variables {@link tokenVerificationConfigFields} declares. */
export type TokenVerificationConfigKey =
  | 'AUTH_PROVIDER'
  | 'JWT_SECRET'
  | 'JWT_ISSUER'
  | 'JWT_AUDIENCE'
  | 'AUTH_JWKS_URI'
  | 'AUTH_ISSUER'
  | 'AUTH_AUDIENCE';

/** Options of {@link tokenVerificationConfigFields}. */
export interface TokenVerificationConfigOptions {
  /** README descriptions replacing the shared ones (meaning only). */
  descriptions?: Partial<Record<TokenVerificationConfigKey, string>>;
}

function tokenFields(options: TokenVerificationConfigOptions) {
  const d = (key: TokenVerificationConfigKey, text: string) => options.descriptions?.[key] ?? text;
  return {
    JWT_SECRET: Type.Optional(
      Type.String({
        description: d(
          'JWT_SECRET',
          'HS256 key shared with platform-auth, at least 32 bytes (builtin tokens)',
        ),
      }),
    ),
    JWT_ISSUER: Type.String({
      default: 'care-platform',
      minLength: 1,
      description: d('JWT_ISSUER', '`iss` of builtin tokens'),
    }),
    JWT_AUDIENCE: Type.String({
      default: 'care-platform',
      minLength: 1,
      description: d('JWT_AUDIENCE', '`aud` of builtin tokens'),
    }),
    AUTH_JWKS_URI: Type.Optional(
      Type.String({
        format: 'uri',
        description: d('AUTH_JWKS_URI', 'JWKS endpoint of the identity provider (AUTH_PROVIDER=external)'),
      }),
    ),
    AUTH_ISSUER: Type.Optional(
      Type.String({ minLength: 1, description: d('AUTH_ISSUER', 'expected `iss` of external tokens') }),
    ),
    AUTH_AUDIENCE: Type.Optional(
      Type.String({ minLength: 1, description: d('AUTH_AUDIENCE', 'expected `aud` of external tokens') }),
    ),
  };
}

const optionalProvider = (description: string) => Type.Optional(Type.Union(Provider.anyOf, { description }));

const PROVIDER_TEXT =
  '`builtin`: HS256 tokens of platform-auth (JWT_SECRET); `external`: RS256/ES256 via AUTH_JWKS_URI';

/**
 * The variables of platform access-token verification (ADR 0006, 0007): `AUTH_PROVIDER` (`builtin` HS256 with
 * `JWT_SECRET`, or `external` JWKS), the expected issuer and audience of each. With `defaultProvider: 'builtin'`
 * an unset `AUTH_PROVIDER` means builtin; without it, unset stays unset (memory: tokens verified only when
 * `JWT_SECRET` is set). {@link tokenVerificationRules} holds their cross-field checks; {@link verifierFromConfig}
 * builds the verifier from them.
 */
export function tokenVerificationConfigFields(
  options: TokenVerificationConfigOptions & { defaultProvider: 'builtin' },
): ReturnType<typeof tokenFields> & { AUTH_PROVIDER: typeof Provider };
export function tokenVerificationConfigFields(
  options?: TokenVerificationConfigOptions & { defaultProvider?: undefined },
): ReturnType<typeof tokenFields> & { AUTH_PROVIDER: ReturnType<typeof optionalProvider> };
export function tokenVerificationConfigFields(
  options: TokenVerificationConfigOptions & { defaultProvider?: 'builtin' } = {},
) {
  const description = options.descriptions?.AUTH_PROVIDER ?? PROVIDER_TEXT;
  const AUTH_PROVIDER = options.defaultProvider
    ? Type.Union(Provider.anyOf, { default: options.defaultProvider, description })
    : optionalProvider(description);
  return { AUTH_PROVIDER, ...tokenFields(options) };
}

/** The token variables' values the rules read. */
interface TokenVerificationValues {
  APP_PROFILES_ACTIVE?: 'dev' | 'prod';
  AUTH_PROVIDER?: 'builtin' | 'external';
  JWT_SECRET?: string;
  AUTH_JWKS_URI?: string;
  AUTH_ISSUER?: string;
  AUTH_AUDIENCE?: string;
}

const EXTERNAL_NEEDS = ['AUTH_JWKS_URI', 'AUTH_ISSUER', 'AUTH_AUDIENCE'] as const;

/**
 * Cross-field checks of {@link tokenVerificationConfigFields}: `JWT_SECRET` has at least 32 UTF-8 bytes; external
 * mode names its JWKS URI, issuer and audience; builtin mode has a secret: `secretRequired: 'builtin'` whenever
 * `AUTH_PROVIDER` is (or defaults to) builtin, `'prod'` only in prod (a dev service without one refuses every token).
 */
export function tokenVerificationRules(options: {
  secretRequired: 'builtin' | 'prod';
}): ConfigRule<TokenVerificationValues>[] {
  const secretRule: ConfigRule<TokenVerificationValues> =
    options.secretRequired === 'builtin'
      ? (c) =>
          c.AUTH_PROVIDER === 'builtin' &&
          !c.JWT_SECRET &&
          'JWT_SECRET is required when AUTH_PROVIDER=builtin (at least 32 bytes)'
      : (c) =>
          c.APP_PROFILES_ACTIVE === 'prod' &&
          (c.AUTH_PROVIDER ?? 'builtin') === 'builtin' &&
          !c.JWT_SECRET &&
          'JWT_SECRET is required in prod (AUTH_PROVIDER=builtin)';
  return [
    secretRule,
    (c) =>
      c.JWT_SECRET !== undefined &&
      Buffer.byteLength(c.JWT_SECRET, 'utf8') < 32 &&
      'JWT_SECRET must be at least 32 bytes',
    (c) => {
      if (c.AUTH_PROVIDER !== 'external') return undefined;
      const missing = EXTERNAL_NEEDS.filter((k) => !c[k]);
      return missing.length > 0 && `AUTH_PROVIDER=external requires ${missing.join(', ')}`;
    },
  ];
}
