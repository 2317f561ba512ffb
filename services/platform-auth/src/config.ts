import { Type, type Static } from '@care/contracts';
import { csv, loadConfig, type ConfigRule } from '@care/service-kit';

const Int = (def: number, min: number, description: string, max?: number) =>
  Type.Integer({ default: def, minimum: min, ...(max === undefined ? {} : { maximum: max }), description });

/** Every environment variable platform-auth reads, with its default and meaning (source of the README table). */
export const ConfigSchema = Type.Object({
  PORT: Int(8080, 0, 'HTTP port', 65535),
  APP_PROFILES_ACTIVE: Type.Union([Type.Literal('dev'), Type.Literal('prod')], {
    default: 'dev',
    description: '`dev` or `prod`; `prod` requires explicit `CORS_ALLOWED_ORIGINS` (no `*`)',
  }),
  LOG_LEVEL: Type.String({ default: 'info', description: 'pino level: fatal, error, warn, info, debug, trace' }),
  CORS_ALLOWED_ORIGINS: Type.Optional(Type.String({ description: 'comma list of allowed browser origins; `*` allows any (dev only); unset: any origin in dev, none in prod (ADR 0011)' })),
  TRUST_PROXY: Type.String({ default: 'false', description: 'Express `trust proxy`: `false`, `true`, a hop count or a comma list of addresses/CIDRs; decides the client IP used by login throttling (set it to the ingress hops, ADR 0009)' }),
  REDIS_URL: Type.Optional(Type.String({ description: 'Redis for the login throttle counts, shared by replicas; unset: counted in process (ADR 0009)' })),
  MANAGEMENT_PORT: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535, description: 'when set, /actuator env, metrics and prometheus are served open on this port only (keep it inside the cluster); unset: on the main port for `platform:admin` tokens (ADR 0005)' })),
  DATABASE_URI: Type.Optional(Type.String({ description: 'unset: embedded PGlite under DATA_DIR; `pglite://memory`: ephemeral; `postgres://...`: a server' })),
  DATA_DIR: Type.String({ default: '.data/platform-auth', description: 'folder of the embedded database (when DATABASE_URI is unset)' }),
  AUTH_PROVIDER: Type.Union([Type.Literal('builtin'), Type.Literal('external')], {
    default: 'builtin',
    description: '`builtin` (email + password, HS256 tokens issued here) or `external` (provider tokens checked against its JWKS)',
  }),
  JWT_SECRET: Type.Optional(Type.String({ description: 'HS256 key, at least 32 bytes; required in builtin mode' })),
  JWT_TTL_SECONDS: Int(900, 30, 'access token (idToken) lifetime', 86400),
  JWT_ISSUER: Type.String({ default: 'care-platform', minLength: 1, description: '`iss` of issued tokens (builtin mode)' }),
  JWT_AUDIENCE: Type.String({ default: 'care-platform', minLength: 1, description: '`aud` of issued tokens (builtin mode)' }),
  AUTH_JWKS_URI: Type.Optional(Type.String({ format: 'uri', description: 'JWKS endpoint of the identity provider (external mode)' })),
  AUTH_ISSUER: Type.Optional(Type.String({ minLength: 1, description: 'expected `iss` of provider tokens (external mode)' })),
  AUTH_AUDIENCE: Type.Optional(Type.String({ minLength: 1, description: 'expected `aud` of provider tokens (external mode)' })),
  AUTH_JWKS_REQUESTS_PER_MINUTE: Int(10, 1, 'external mode: most JWKS fetches per minute (unknown `kid`s beyond it are refused without a fetch)'),
  REFRESH_TOKEN_TTL_SECONDS: Int(2592000, 60, 'absolute lifetime of a refresh-token family from login (30 days)'),
  BCRYPT_COST: Int(12, 4, 'bcrypt cost factor of stored password hashes', 15),
  LOGIN_MAX_ACCOUNT_FAILURES: Int(5, 1, 'failed logins of one email after which that email is locked'),
  LOGIN_LOCKOUT_SECONDS: Int(900, 1, 'how long an email stays locked after too many failures'),
  LOGIN_MAX_IP_FAILURES: Int(20, 1, 'failed logins from one client IP within LOGIN_IP_WINDOW_SECONDS before that IP is refused'),
  LOGIN_IP_WINDOW_SECONDS: Int(300, 1, 'window of the per-IP failure count (the IP is refused until the window ends)'),
  BOOTSTRAP_ADMIN_EMAIL: Type.Optional(Type.String({ minLength: 3, description: 'first PLATFORM_ADMIN, created when no user exists' })),
  BOOTSTRAP_ADMIN_PASSWORD: Type.Optional(Type.String({ minLength: 8, description: 'password of the first admin (only used while no user exists)' })),
  BOOTSTRAP_TENANT_ID: Type.String({ default: 'platform', pattern: '^[a-z0-9][a-z0-9-]{0,62}$', description: 'tenant of the first admin' }),
  CARE_CONSULT_URL: Type.String({ default: 'http://127.0.0.1:8000', format: 'uri', description: 'care-consult base URL; `/api/v1/chat/**` is forwarded to its `/api/chat/**`' }),
  CHAT_CONNECT_TIMEOUT_MS: Int(5000, 100, 'time to wait for care-consult to answer with headers before a 504'),
  MEMORY_BASE_URL: Type.Optional(Type.String({ format: 'uri', description: 'memory service base URL; when set, knowledge-base documents are indexed there (best effort)' })),
  MEMORY_API_KEY: Type.Optional(Type.String({ minLength: 1, description: '`X-API-Key` for the memory service' })),
  MEMORY_TIMEOUT_MS: Int(3000, 100, 'timeout of one knowledge-base search or removal call to the memory service'),
  KB_INDEX_TIMEOUT_MS: Int(30000, 100, 'timeout of one knowledge-base indexing write (a batch of up to 16 passages) to the memory service'),
  KB_INDEX_ATTEMPTS: Int(4, 1, 'attempts of one indexing write that timed out, could not connect or got 429/5xx', 10),
  KB_INDEX_BACKOFF_MS: Int(500, 0, 'delay before the second attempt of an indexing write, doubled for each further one (with jitter)'),
  KB_INDEX_CONCURRENCY: Int(2, 1, 'indexing writes in flight to the memory service at once; further uploads queue in this service', 32),
  GIT_COMMIT: Type.Optional(Type.String({ description: 'git commit shown by /actuator/info (default: recorded at build time)' })),
  SHUTDOWN_TIMEOUT_MS: Int(10000, 0, 'upper bound of the graceful shutdown after the listener closed'),
  SHUTDOWN_DRAIN_MS: Type.Optional(Type.Integer({ minimum: 0, description: 'on SIGTERM, how long to keep serving with readiness down before the listener closes; default 5000 in prod, 0 in dev (ADR 0007)' })),
});

/** The validated, frozen configuration. */
export type Config = Readonly<Static<typeof ConfigSchema>>;

const rules: ConfigRule<Static<typeof ConfigSchema>>[] = [
  (c) => c.AUTH_PROVIDER === 'builtin' && !c.JWT_SECRET && 'JWT_SECRET is required when AUTH_PROVIDER=builtin (at least 32 bytes)',
  (c) => c.JWT_SECRET !== undefined && Buffer.byteLength(c.JWT_SECRET, 'utf8') < 32 && 'JWT_SECRET must be at least 32 bytes',
  (c) =>
    c.AUTH_PROVIDER === 'external' &&
    (!c.AUTH_JWKS_URI || !c.AUTH_ISSUER || !c.AUTH_AUDIENCE) &&
    `AUTH_PROVIDER=external requires ${['AUTH_JWKS_URI', 'AUTH_ISSUER', 'AUTH_AUDIENCE'].filter((k) => !c[k as keyof typeof c]).join(', ')}`,
  (c) => c.APP_PROFILES_ACTIVE === 'prod' && /(^|,)\s*\*\s*(,|$)/.test(c.CORS_ALLOWED_ORIGINS ?? '') && 'CORS_ALLOWED_ORIGINS must list origins (not `*`) when APP_PROFILES_ACTIVE=prod',
  (c) => Boolean(c.BOOTSTRAP_ADMIN_EMAIL) !== Boolean(c.BOOTSTRAP_ADMIN_PASSWORD) && 'BOOTSTRAP_ADMIN_EMAIL and BOOTSTRAP_ADMIN_PASSWORD must be set together',
  (c) => c.BOOTSTRAP_ADMIN_PASSWORD !== undefined && Buffer.byteLength(c.BOOTSTRAP_ADMIN_PASSWORD, 'utf8') > 72 && 'BOOTSTRAP_ADMIN_PASSWORD must be at most 72 bytes',
  (c) => typeof c.DATABASE_URI === 'string' && /^mongodb(\+srv)?:/i.test(c.DATABASE_URI) && 'DATABASE_URI: PostgreSQL is required (mongodb:// is not supported)',
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
