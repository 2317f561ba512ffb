import { Type, type Static } from '@care/contracts';
import {
  csv,
  loadConfig,
  serviceConfigFields,
  serviceConfigRules,
  tokenVerificationConfigFields,
  tokenVerificationRules,
  type ConfigRule,
} from '@care/service-kit';

const Int = (def: number, min: number, description: string, max?: number) =>
  Type.Integer({ default: def, minimum: min, ...(max === undefined ? {} : { maximum: max }), description });

/** Every environment variable platform-auth reads, with its default and meaning (source of the README table). */
export const ConfigSchema = Type.Object({
  ...serviceConfigFields({
    port: 8080,
    dataDir: '.data/platform-auth',
    descriptions: {
      APP_PROFILES_ACTIVE: '`dev` or `prod`; `prod` requires explicit `CORS_ALLOWED_ORIGINS` (no `*`)',
      CORS_ALLOWED_ORIGINS:
        'comma list of allowed browser origins; `*` allows any (dev only); unset: any origin in dev, none in prod (ADR 0011)',
      TRUST_PROXY:
        'Express `trust proxy`: `false`, `true`, a hop count or a comma list of addresses/CIDRs; decides the client IP used by login throttling (set it to the ingress hops, ADR 0009)',
      MANAGEMENT_PORT:
        'when set, /actuator env, metrics and prometheus are served open on this port only (keep it inside the cluster); unset: on the main port for `platform:admin` tokens (ADR 0005)',
    },
  }),
  REDIS_URL: Type.Optional(
    Type.String({
      description:
        'Redis for the login throttle counts, shared by replicas; unset: counted in process (ADR 0009)',
    }),
  ),
  ...tokenVerificationConfigFields({
    defaultProvider: 'builtin',
    descriptions: {
      AUTH_PROVIDER:
        '`builtin` (email + password, HS256 tokens issued here) or `external` (provider tokens checked against its JWKS)',
      JWT_SECRET: 'HS256 key, at least 32 bytes; required in builtin mode',
      JWT_ISSUER: '`iss` of issued tokens (builtin mode)',
      JWT_AUDIENCE: '`aud` of issued tokens (builtin mode)',
      AUTH_JWKS_URI: 'JWKS endpoint of the identity provider (external mode)',
      AUTH_ISSUER: 'expected `iss` of provider tokens (external mode)',
      AUTH_AUDIENCE: 'expected `aud` of provider tokens (external mode)',
    },
  }),
  JWT_TTL_SECONDS: Int(900, 30, 'access token (idToken) lifetime', 86400),
  AUTH_JWKS_REQUESTS_PER_MINUTE: Int(
    10,
    1,
    'external mode: most JWKS fetches per minute (unknown `kid`s beyond it are refused without a fetch)',
  ),
  REFRESH_TOKEN_TTL_SECONDS: Int(
    2592000,
    60,
    'absolute lifetime of a refresh-token family from login (30 days)',
  ),
  BCRYPT_COST: Int(12, 4, 'bcrypt cost factor of stored password hashes', 15),
  LOGIN_MAX_ACCOUNT_FAILURES: Int(5, 1, 'failed logins of one email after which that email is locked'),
  LOGIN_LOCKOUT_SECONDS: Int(900, 1, 'how long an email stays locked after too many failures'),
  LOGIN_MAX_IP_FAILURES: Int(
    20,
    1,
    'failed logins from one client IP within LOGIN_IP_WINDOW_SECONDS before that IP is refused',
  ),
  LOGIN_IP_WINDOW_SECONDS: Int(
    300,
    1,
    'window of the per-IP failure count (the IP is refused until the window ends)',
  ),
  BOOTSTRAP_ADMIN_EMAIL: Type.Optional(
    Type.String({ minLength: 3, description: 'first PLATFORM_ADMIN, created when no user exists' }),
  ),
  BOOTSTRAP_ADMIN_PASSWORD: Type.Optional(
    Type.String({
      minLength: 8,
      description: 'password of the first admin (only used while no user exists)',
    }),
  ),
  BOOTSTRAP_TENANT_ID: Type.String({
    default: 'platform',
    pattern: '^[a-z0-9][a-z0-9-]{0,62}$',
    description: 'tenant of the first admin',
  }),
  CARE_CONSULT_URL: Type.String({
    default: 'http://127.0.0.1:8000',
    format: 'uri',
    description: 'care-consult base URL; `/api/v1/chat/**` is forwarded to its `/api/chat/**`',
  }),
  CHAT_CONNECT_TIMEOUT_MS: Int(
    5000,
    100,
    'time to wait for care-consult to answer with headers before a 504',
  ),
  MEMORY_BASE_URL: Type.Optional(
    Type.String({
      format: 'uri',
      description:
        'memory service base URL; when set, knowledge-base documents are indexed there (best effort)',
    }),
  ),
  MEMORY_API_KEY: Type.Optional(
    Type.String({ minLength: 1, description: '`X-API-Key` for the memory service' }),
  ),
  MEMORY_TIMEOUT_MS: Int(
    3000,
    100,
    'timeout of one knowledge-base search or removal call to the memory service',
  ),
  KB_INDEX_TIMEOUT_MS: Int(
    30000,
    100,
    'timeout of one knowledge-base indexing write (a batch of up to 16 passages) to the memory service',
  ),
  KB_INDEX_ATTEMPTS: Int(
    4,
    1,
    'attempts of one indexing write that timed out, could not connect or got 429/5xx',
    10,
  ),
  KB_INDEX_BACKOFF_MS: Int(
    500,
    0,
    'delay before the second attempt of an indexing write, doubled for each further one (with jitter)',
  ),
  KB_INDEX_CONCURRENCY: Int(
    2,
    1,
    'indexing writes in flight to the memory service at once; further uploads queue in this service',
    32,
  ),
  GIT_COMMIT: Type.Optional(
    Type.String({ description: 'git commit shown by /actuator/info (default: recorded at build time)' }),
  ),
});

/** The validated, frozen configuration. */
export type Config = Readonly<Static<typeof ConfigSchema>>;

const rules: ConfigRule<Static<typeof ConfigSchema>>[] = [
  ...tokenVerificationRules({ secretRequired: 'builtin' }),
  ...serviceConfigRules({ refuseWildcardCorsInProd: true }),
  (c) =>
    Boolean(c.BOOTSTRAP_ADMIN_EMAIL) !== Boolean(c.BOOTSTRAP_ADMIN_PASSWORD) &&
    'BOOTSTRAP_ADMIN_EMAIL and BOOTSTRAP_ADMIN_PASSWORD must be set together',
  (c) =>
    c.BOOTSTRAP_ADMIN_PASSWORD !== undefined &&
    Buffer.byteLength(c.BOOTSTRAP_ADMIN_PASSWORD, 'utf8') > 72 &&
    'BOOTSTRAP_ADMIN_PASSWORD must be at most 72 bytes',
];

/** Loads and checks platform-auth's configuration from `env`; throws ConfigError listing every problem. */
export function loadAuthConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return loadConfig(ConfigSchema, env, rules);
}

/**
 * Allowed CORS origins: the configured list; unset means any origin in dev and none in prod, so a production
 * install with no browser front end starts without inventing an origin (ADR 0011).
 */
export function corsOrigins(config: Pick<Config, 'CORS_ALLOWED_ORIGINS' | 'APP_PROFILES_ACTIVE'>): string[] {
  if (config.CORS_ALLOWED_ORIGINS !== undefined) return csv(config.CORS_ALLOWED_ORIGINS);
  return config.APP_PROFILES_ACTIVE === 'prod' ? [] : ['*'];
}
