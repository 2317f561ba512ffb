import path from 'node:path';
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
import { ChatConfigProperties } from './chat/chat.config';

/** The starter workspace shipped with the package; resolves the same from `src/` (ts) and `dist/` (js). */
export const SHIPPED_WORKSPACE_ROOT = path.resolve(__dirname, '..', 'workspace');

/** LLM engines the chat can use; `offline` answers from skill documents without any model. */
const LLM_PROVIDERS = ['offline', 'openai', 'anthropic', 'ollama'] as const;
/** One LLM engine name. */
export type LlmProviderName = (typeof LLM_PROVIDERS)[number];

// A variable without a default is optional; one with a default is always present once loaded (the loader fills
// it in), so the loaded type needs no hand-written list of the fields that are set.
const optional = (description: string) => Type.Optional(Type.String({ description }));
const str = (description: string, def: string) => Type.String({ description, default: def });
const int = (description: string, def: number, minimum = 0) =>
  Type.Integer({ description, default: def, minimum });

/** Every environment variable care-consult reads, with its meaning and default (README table source). */
export const ConfigSchema = Type.Object({
  ...serviceConfigFields({
    port: 8000,
    dataDir: '.data/care-consult',
    descriptions: {
      PORT: 'HTTP port',
      MANAGEMENT_PORT:
        "Port of the operators' listener serving only `/actuator/prometheus` and `/actuator/health/liveness` (ADR 0012); unset: metrics on the API port in dev, none in prod",
      APP_PROFILES_ACTIVE: '`dev` or `prod`; prod refuses to start without its secrets',
      CORS_ALLOWED_ORIGINS:
        'Comma list of allowed browser origins; unset in dev allows any, unset in prod allows none',
      LOG_LEVEL: 'pino level: trace, debug, info, warn, error, fatal',
      DATABASE_URI:
        'Unset: embedded PGlite in DATA_DIR; `pglite://memory`: ephemeral; `postgres://...`: a server',
      DATA_DIR: 'Folder of the embedded database',
      TRUST_PROXY:
        'Express `trust proxy`: `false`, `true`, a hop count or a comma list of addresses/CIDRs; decides the client IP the relay rate limit counts by (ADR 0009)',
      SHUTDOWN_DRAIN_MS:
        'On SIGTERM, how long to keep serving with health down before the listener closes; default 5000 in prod, 0 in dev (ADR 0007)',
      SHUTDOWN_TIMEOUT_MS: 'Upper bound of the graceful shutdown after the listener closed',
    },
  }),
  ...tokenVerificationConfigFields({
    defaultProvider: 'builtin',
    descriptions: {
      JWT_SECRET:
        'HS256 key shared with platform-auth (>= 32 bytes); required in prod with AUTH_PROVIDER=builtin',
      JWT_ISSUER: 'Expected `iss` of builtin tokens',
      JWT_AUDIENCE: 'Expected `aud` of builtin tokens',
      AUTH_JWKS_URI: 'JWKS URL of the external identity provider (AUTH_PROVIDER=external)',
      AUTH_ISSUER: 'Expected `iss` of external tokens',
      AUTH_AUDIENCE: 'Expected `aud` of external tokens',
    },
  }),
  WEB_CONCURRENCY: int(
    'Worker processes serving PORT together (node:cluster), e.g. one per core; above 1 needs a PostgreSQL server (DATABASE_URI), REDIS_URL and RELAY_SIGNING_KEY, since the workers share threads, relay nonces and ticket keys (ADR 0406)',
    1,
    1,
  ),
  ACCEPT_SOCKETS: int(
    "Listen sockets on PORT in each serving process (SO_REUSEPORT; Linux, Node >= 22.12): libuv accepts one connection per ready socket per event-loop turn, so more sockets drain a busy process's accept queue faster; ignored, with a warning, in WEB_CONCURRENCY workers and where unsupported (ADR 0405)",
    1,
    1,
  ),
  WORKSPACE_ROOT: optional(
    'Folder with agents/<id>/AGENT.md and skills/<id>/SKILL.md; default the shipped starter workspace',
  ),
  WORKSPACE_WATCH: Type.Boolean({
    description: 'Reload the catalog when workspace files change (fs.watch, debounced)',
    default: true,
  }),
  ATTACHMENTS_DIR: str(
    'Folder (volume) holding attachment bytes, one sub-folder per tenant and user',
    '.data/care-consult/attachments',
  ),
  ATTACHMENTS_MAX_BYTES: int('Largest accepted attachment in bytes', 10 * 1024 * 1024, 1),
  ATTACHMENTS_ALLOWED_TYPES: str(
    'Comma list of accepted media types (checked against the sniffed content)',
    'application/pdf,image/png,image/jpeg,image/webp,text/plain,text/markdown,text/csv',
  ),
  ATTACHMENTS_MAX_PER_USER: int('Most attachments one user may keep in the sandbox', 200, 1),
  LLM_PROVIDER: Type.Optional(
    Type.Union(
      LLM_PROVIDERS.map((p) => Type.Literal(p)),
      {
        description:
          'Active chat engine; unset: openai with LLM_API_KEY, else anthropic with ALT_LLM_API_KEY, else offline',
      },
    ),
  ),
  LLM_API_KEY: optional('API key of the OpenAI-compatible provider'),
  LLM_BASE_URL: str('Base URL of the OpenAI-compatible API', 'https://api.openai.com/v1'),
  LLM_MODEL: str('Model of the OpenAI-compatible provider', 'gpt-4o-mini'),
  ALT_LLM_API_KEY: optional('API key of Anthropic'),
  ALT_LLM_BASE_URL: str('Base URL of the Anthropic API', 'https://api.anthropic.com'),
  ALT_LLM_MODEL: str('Anthropic model', 'claude-3-5-haiku-latest'),
  LOCAL_LLM_BASE_URL: str('Ollama server (local inference)', 'http://127.0.0.1:11434'),
  LOCAL_LLM_MODEL: str('Ollama model', 'llama3.2'),
  LLM_PROBE_TIMEOUT_MS: int('Timeout of reachability probes and provider model lists', 1500, 50),
  LLM_PROBE_CACHE_MS: int('How long a probe result is reused', 15000, 0),
  MEMORY_BASE_URL: optional('Memory service URL; unset: no memory backend'),
  MEMORY_API_KEY: optional('X-API-Key for the memory service when it requires one'),
  RELAY_SIGNING_KEY: optional('HMAC key of relay tickets (>= 32 characters); required in prod'),
  RELAY_PREVIOUS_KEYS: optional('Comma list of retired relay keys that still verify'),
  RELAY_COMPANION_SCHEME: str('Deep-link scheme of the companion app allowed as relay callback', 'careapp'),
  REDIS_URL: optional(
    'Redis for consumed relay nonces and the relay callback rate limit, shared by replicas; unset: in-process (ADR 0009)',
  ),
  ...ChatConfigProperties,
  RELAY_CALLBACK_RATE_LIMIT: int(
    'Relay callbacks allowed per client address and minute (all replicas together when REDIS_URL is set); 0 turns the limit off',
    60,
    0,
  ),
  RELAY_AUDIT_TENANT_ID: str(
    'Tenant whose audit trail records relay callbacks (a ticket names a user, not a tenant)',
    'platform',
  ),
});

/** The loaded, frozen configuration: the schema's type (every variable with a default is present). */
export type AppConfig = Readonly<Static<typeof ConfigSchema>>;

const rules: ConfigRule<Static<typeof ConfigSchema>>[] = [
  ...serviceConfigRules({ refuseWildcardCorsInProd: false }),
  // Without a secret in dev the service starts and refuses every token (ADR 0200).
  ...tokenVerificationRules({ secretRequired: 'prod' }),
  (c) =>
    c.RELAY_SIGNING_KEY !== undefined &&
    c.RELAY_SIGNING_KEY.length < 32 &&
    'RELAY_SIGNING_KEY must be at least 32 characters',
  (c) => c.APP_PROFILES_ACTIVE === 'prod' && !c.RELAY_SIGNING_KEY && 'RELAY_SIGNING_KEY is required in prod',
  (c) =>
    csv(c.RELAY_PREVIOUS_KEYS).some((k) => k.length < 32) &&
    'RELAY_PREVIOUS_KEYS entries must be at least 32 characters',
  (c) => c.LLM_PROVIDER === 'openai' && !c.LLM_API_KEY && 'LLM_PROVIDER=openai needs LLM_API_KEY',
  (c) =>
    c.LLM_PROVIDER === 'anthropic' && !c.ALT_LLM_API_KEY && 'LLM_PROVIDER=anthropic needs ALT_LLM_API_KEY',
  // Embedded PGlite lives inside one process: a second worker would open its own copy of the data (ADR 0406).
  (c) =>
    (c.WEB_CONCURRENCY ?? 1) > 1 &&
    !/^postgres(ql)?:\/\//.test(c.DATABASE_URI ?? '') &&
    'WEB_CONCURRENCY > 1 needs a PostgreSQL server (DATABASE_URI=postgres://...): the embedded database belongs to one process',
  (c) =>
    (c.WEB_CONCURRENCY ?? 1) > 1 &&
    !c.REDIS_URL &&
    'WEB_CONCURRENCY > 1 needs REDIS_URL: the workers must share consumed relay nonces and the callback rate limit',
  (c) =>
    (c.WEB_CONCURRENCY ?? 1) > 1 &&
    !c.RELAY_SIGNING_KEY &&
    'WEB_CONCURRENCY > 1 needs RELAY_SIGNING_KEY: each worker would otherwise sign relay tickets with its own random key',
];

/** Loads and checks the environment; throws `ConfigError` listing every problem. */
export function loadAppConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  return loadConfig(ConfigSchema, env, rules);
}

/** The LLM engines' settings: the explicit choice, and each provider's key, URL and model. */
export type LlmSettings = Pick<
  AppConfig,
  | 'LLM_PROVIDER'
  | 'LLM_API_KEY'
  | 'LLM_BASE_URL'
  | 'LLM_MODEL'
  | 'ALT_LLM_API_KEY'
  | 'ALT_LLM_BASE_URL'
  | 'ALT_LLM_MODEL'
  | 'LOCAL_LLM_BASE_URL'
  | 'LOCAL_LLM_MODEL'
>;

/** The active chat engine: explicit LLM_PROVIDER, else the first provider whose key is set, else offline. */
export function activeLlmProvider(
  config: Pick<AppConfig, 'LLM_PROVIDER' | 'LLM_API_KEY' | 'ALT_LLM_API_KEY'>,
): LlmProviderName {
  if (config.LLM_PROVIDER) return config.LLM_PROVIDER;
  if (config.LLM_API_KEY) return 'openai';
  if (config.ALT_LLM_API_KEY) return 'anthropic';
  return 'offline';
}

/** CORS origins: the configured list, or any origin in dev when none is set. */
export function corsOrigins(config: AppConfig): string[] {
  const list = csv(config.CORS_ALLOWED_ORIGINS);
  return list.length || config.APP_PROFILES_ACTIVE === 'prod' ? list : ['*'];
}

/** The workspace folder to load. */
export function workspaceRoot(config: AppConfig): string {
  return path.resolve(config.WORKSPACE_ROOT ?? SHIPPED_WORKSPACE_ROOT);
}
