import { Type, type Static } from '@care/contracts';
import { loadConfig, type ConfigRule } from '@care/service-kit';

/** Every environment variable the memory service reads, with its default and meaning (README table source). */
export const ConfigSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 7070, description: 'HTTP port' }),
  MANAGEMENT_PORT: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 65535,
      description:
        "port of the operators' listener serving only `/actuator/prometheus` and `/actuator/health/liveness` (ADR 0012); unset: metrics on the API port in dev, none in prod",
    }),
  ),
  APP_PROFILES_ACTIVE: Type.Union([Type.Literal('dev'), Type.Literal('prod')], {
    default: 'dev',
    description: '`dev` or `prod`; `prod` refuses to start without `API_KEY`',
  }),
  LOG_LEVEL: Type.String({
    default: 'info',
    description: 'pino level: fatal, error, warn, info, debug, trace',
  }),
  CORS_ALLOWED_ORIGINS: Type.String({
    default: '*',
    description: 'comma list of allowed origins; `*` allows any origin',
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
  DATABASE_URI: Type.Optional(
    Type.String({
      description:
        'unset: embedded PGlite under DATA_DIR; `pglite://memory`: ephemeral; `postgres://...`: a server with pgvector',
    }),
  ),
  DATA_DIR: Type.String({
    default: '.data/memory',
    description: 'folder of the embedded database (when DATABASE_URI is unset)',
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
  (c) =>
    c.APP_PROFILES_ACTIVE === 'prod' && !c.API_KEY && 'API_KEY is required when APP_PROFILES_ACTIVE=prod',
  (c) =>
    c.EMBEDDING_PROVIDER === 'openai' &&
    !c.OPENAI_API_KEY &&
    'OPENAI_API_KEY is required when EMBEDDING_PROVIDER=openai',
  (c) =>
    typeof c.DATABASE_URI === 'string' &&
    /^mongodb(\+srv)?:/i.test(c.DATABASE_URI) &&
    'DATABASE_URI: PostgreSQL is required (mongodb:// is not supported)',
];

/** Loads and checks the memory service's configuration from `env`; throws ConfigError listing every problem. */
export function loadMemoryConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return loadConfig(ConfigSchema, env, rules);
}
