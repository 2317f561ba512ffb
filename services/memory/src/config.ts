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

/** Every environment variable the memory service reads, with its default and meaning (README table source). */
export const ConfigSchema = Type.Object({
  ...serviceConfigFields({
    port: 7070,
    dataDir: '.data/memory',
    descriptions: {
      APP_PROFILES_ACTIVE:
        '`dev` or `prod`; `prod` refuses to start without `API_KEY` or platform token verification, and with `*` CORS',
      CORS_ALLOWED_ORIGINS:
        'comma list of allowed browser origins; unset: any origin in dev, none in prod; `*` is refused in prod (ADR 0007)',
      DATABASE_URI:
        'unset: embedded PGlite under DATA_DIR; `pglite://memory`: ephemeral; `postgres://...`: a server with pgvector',
      SHUTDOWN_DRAIN_MS:
        'on SIGTERM, how long to keep serving with health down before the listener closes; default 5000 in prod, 0 in dev (ADR 0007)',
    },
  }),
  HOST: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'address to listen on; default `127.0.0.1` in dev (not reachable from other machines), `0.0.0.0` in prod (ADR 0007)',
    }),
  ),
  // Unset AUTH_PROVIDER: tokens are verified only when JWT_SECRET is set (builtin), else not at all.
  ...tokenVerificationConfigFields({
    descriptions: {
      AUTH_PROVIDER:
        'platform bearer tokens: `builtin` (HS256, `JWT_SECRET`) or `external` (JWKS); unset: builtin when `JWT_SECRET` is set, else no token verification (ADR 0007)',
      JWT_ISSUER: 'expected `iss` of builtin tokens',
      JWT_AUDIENCE: 'expected `aud` of builtin tokens',
      AUTH_JWKS_URI: 'JWKS URL of the identity provider (AUTH_PROVIDER=external)',
    },
  }),
  API_KEY: Type.Optional(
    Type.String({
      minLength: 16,
      description: 'when set, every request except preflight needs `X-API-Key` with this value',
    }),
  ),
  API_KEY_EXEMPT_PATHS: Type.String({
    default: '/api/v1/system/health',
    description:
      'comma list of GET paths answered without `X-API-Key` (container probes); empty protects everything',
  }),
  OPERATING_MODE: Type.Union([Type.Literal('RAG'), Type.Literal('MEMORY'), Type.Literal('HYBRID')], {
    default: 'HYBRID',
    description:
      '`RAG` (documents only: memory endpoints answer 404 MODE_DISABLED), `MEMORY` (recall leaves documents out) or `HYBRID`',
  }),
  PGLITE_SHARED_BUFFERS: Type.Optional(
    Type.String({
      pattern: '^[1-9][0-9]{0,7}(kB|MB|GB)$',
      description:
        "embedded database only: PostgreSQL shared_buffers, allocated at start (RSS grows by about this much); unset keeps PostgreSQL's 128MB (ADR 0306)",
    }),
  ),
  EMBEDDING_PROVIDER: Type.Union(
    [Type.Literal('builtin'), Type.Literal('ollama'), Type.Literal('openai'), Type.Literal('hashing')],
    {
      default: 'builtin',
      description:
        '`builtin` (offline Universal Sentence Encoder lite, 512-d), `ollama`, `openai`, or `hashing` (documented fallback, no semantics)',
    },
  ),
  LOCAL_LLM_BASE_URL: Type.String({
    default: 'http://localhost:11434',
    description: 'Ollama base URL (provider `ollama`)',
  }),
  LOCAL_LLM_MODEL: Type.String({
    default: 'nomic-embed-text',
    description: 'Ollama embedding model (provider `ollama`)',
  }),
  OPENAI_BASE_URL: Type.String({
    default: 'https://api.openai.com/v1',
    description: 'OpenAI-compatible base URL (provider `openai`)',
  }),
  OPENAI_API_KEY: Type.Optional(
    Type.String({ minLength: 1, description: 'bearer key for the `openai` provider' }),
  ),
  OPENAI_EMBEDDING_MODEL: Type.String({
    default: 'text-embedding-3-small',
    description: 'embedding model (provider `openai`)',
  }),
  EMBEDDING_DIMENSIONS: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 8192,
      description:
        'ollama/openai: expected vector size (openai: sent as `dimensions`); unset: learnt from the first answer',
    }),
  ),
  EMBEDDING_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    default: 10000,
    description: 'timeout of one call to a hosted embedding provider',
  }),
  HASHING_DIMENSIONS: Type.Integer({
    minimum: 8,
    maximum: 4096,
    default: 512,
    description: 'vector size of the `hashing` fallback provider',
  }),
  SCRATCHPAD_TTL_SECONDS: Type.Integer({
    minimum: 1,
    default: 3600,
    description: 'default lifetime of a scratchpad (working-tier) entry',
  }),
  REMINDER_POLL_MS: Type.Integer({
    minimum: 0,
    default: 1000,
    description: 'how often due reminders are fired; 0 disables the loop',
  }),
  REFLECT_INTERVAL_SECONDS: Type.Integer({
    minimum: 0,
    default: 3600,
    description: 'period of the automatic consolidation of every partition; 0 disables it',
  }),
  REFLECT_MERGE_SIMILARITY: Type.Number({
    minimum: 0,
    maximum: 1,
    default: 0.95,
    description:
      'reflect: cosine similarity from which two memories of one tier and type are near-duplicates and merged',
  }),
  REFLECT_PROMOTE_SIMILARITY: Type.Number({
    minimum: 0,
    maximum: 1,
    default: 0.8,
    description: 'reflect: similarity from which episodic memories count as the same repeated experience',
  }),
  REFLECT_PROMOTE_MIN_COUNT: Type.Integer({
    minimum: 2,
    default: 3,
    description: 'reflect: how many similar episodic memories make a semantic one',
  }),
  DECAY_UNUSED_DAYS: Type.Number({
    exclusiveMinimum: 0,
    default: 30,
    description: 'reflect: weak memories not recalled for this long lose strength',
  }),
  RECENCY_HALF_LIFE_DAYS: Type.Number({
    exclusiveMinimum: 0,
    default: 30,
    description: 'age at which the recency signal halves',
  }),
});

/** The validated, frozen configuration. */
export type Config = Readonly<Static<typeof ConfigSchema>>;

const rules: ConfigRule<Static<typeof ConfigSchema>>[] = [
  ...serviceConfigRules({ refuseWildcardCorsInProd: true }),
  ...tokenVerificationRules({ secretRequired: 'builtin' }),
  (c) =>
    c.APP_PROFILES_ACTIVE === 'prod' &&
    !c.API_KEY &&
    !tokensVerified(c) &&
    'API_KEY (or platform token verification: JWT_SECRET, or AUTH_PROVIDER=external) is required when APP_PROFILES_ACTIVE=prod',
  (c) =>
    c.EMBEDDING_PROVIDER === 'openai' &&
    !c.OPENAI_API_KEY &&
    'OPENAI_API_KEY is required when EMBEDDING_PROVIDER=openai',
];

/** Loads and checks the memory service's configuration from `env`; throws ConfigError listing every problem. */
export function loadMemoryConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return loadConfig(ConfigSchema, env, rules);
}

/** Whether platform bearer tokens are verified (a token then names the partition, ADR 0007). */
function tokensVerified(c: Pick<Config, 'AUTH_PROVIDER' | 'JWT_SECRET'>): boolean {
  return c.AUTH_PROVIDER === 'external' || Boolean(c.JWT_SECRET);
}

/** CORS origins: the configured list; unset means any origin in dev and none in prod (never reflected in prod). */
export function corsOrigins(c: Config): string[] {
  const list = csv(c.CORS_ALLOWED_ORIGINS);
  return list.length || c.APP_PROFILES_ACTIVE === 'prod' ? list : ['*'];
}

/** Listen address: HOST, else loopback in dev and every interface in prod. */
export function listenHost(c: Config): string {
  return c.HOST ?? (c.APP_PROFILES_ACTIVE === 'prod' ? '0.0.0.0' : '127.0.0.1');
}
