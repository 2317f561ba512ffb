import type { LocalLlmStatus, ModelsResponse, Static } from '@care/contracts';
import { activeLlmProvider, type AppConfig, type LlmProviderName, type LlmSettings } from '../config';
import { joinUrl, safeUrl, type FetchFn } from '@care/service-kit';
import { CachedProbe, probeJson, type ProbeResult } from './cached-probe';

/** Model id of the built-in offline engine (answers from skill documents, no model server). */
export const OFFLINE_MODEL_ID = 'care-offline-skills';

/** `GET /api/models` answer. */
type ModelsAnswer = Static<typeof ModelsResponse>;
/** What one provider reports: whether it is configured and active, its endpoint, whether it answered, its models. */
type ProviderStatus = ModelsAnswer['providers'][number];

/** The model the active provider uses. */
export function activeModel(config: AppConfig): string {
  return defaultModelOf(config, activeLlmProvider(config));
}

function defaultModelOf(config: ModelsConfig, p: LlmProviderName): string {
  return {
    offline: OFFLINE_MODEL_ID,
    openai: config.LLM_MODEL,
    anthropic: config.ALT_LLM_MODEL,
    ollama: config.LOCAL_LLM_MODEL,
  }[p];
}

type ModelList = ProbeResult<string[]>;

/** The settings the models service reads: the engines' settings and the probe bounds. */
type ModelsConfig = LlmSettings & Pick<AppConfig, 'LLM_PROBE_TIMEOUT_MS' | 'LLM_PROBE_CACHE_MS'>;

/**
 * Lists the configured LLM providers and their models, asking each provider's own list endpoint (OpenAI
 * `/models`, Anthropic `/v1/models`, Ollama `/api/tags`) with a short timeout; results are cached so the
 * health and models endpoints never hammer a provider. Keys are sent only to their own provider.
 */
export class ModelsService {
  private readonly lists: Record<Exclude<LlmProviderName, 'offline'>, CachedProbe<ModelList>>;

  private readonly config: ModelsConfig;

  constructor(deps: { config: ModelsConfig; fetch: FetchFn; clock?: () => Date }) {
    const { config, fetch: fetchFn } = deps;
    this.config = config;
    const now = deps.clock ? () => deps.clock!().getTime() : Date.now;
    const t = { timeoutMs: config.LLM_PROBE_TIMEOUT_MS };
    const ttl = config.LLM_PROBE_CACHE_MS;
    const ids = (r: ProbeResult<{ data?: Array<{ id?: unknown }> }>): ModelList =>
      r.ok ? { ok: true, value: (r.value.data ?? []).map((m) => String(m.id ?? '')).filter(Boolean) } : r;
    this.lists = {
      openai: new CachedProbe(
        async () =>
          ids(
            await probeJson(fetchFn, joinUrl(config.LLM_BASE_URL, 'models'), {
              ...t,
              headers: { authorization: `Bearer ${config.LLM_API_KEY}` },
            }),
          ),
        ttl,
        now,
      ),
      anthropic: new CachedProbe(
        async () =>
          ids(
            await probeJson(fetchFn, joinUrl(config.ALT_LLM_BASE_URL, 'v1/models'), {
              ...t,
              headers: { 'x-api-key': config.ALT_LLM_API_KEY ?? '', 'anthropic-version': '2023-06-01' },
            }),
          ),
        ttl,
        now,
      ),
      ollama: new CachedProbe(
        async () => {
          const r = await probeJson<{ models?: Array<{ name?: unknown }> }>(
            fetchFn,
            joinUrl(config.LOCAL_LLM_BASE_URL, 'api/tags'),
            t,
          );
          return r.ok
            ? { ok: true, value: (r.value.models ?? []).map((m) => String(m.name ?? '')).filter(Boolean) }
            : r;
        },
        ttl,
        now,
      ),
    };
  }

  /** Every provider with its models, and which one is active. */
  async models(): Promise<ModelsAnswer> {
    const c = this.config;
    const active = activeLlmProvider(c);
    const ext = [
      {
        id: 'openai' as const,
        name: 'OpenAI-compatible API',
        configured: !!c.LLM_API_KEY,
        endpoint: c.LLM_BASE_URL,
      },
      {
        id: 'anthropic' as const,
        name: 'Anthropic',
        configured: !!c.ALT_LLM_API_KEY,
        endpoint: c.ALT_LLM_BASE_URL,
      },
      { id: 'ollama' as const, name: 'Ollama (local)', configured: true, endpoint: c.LOCAL_LLM_BASE_URL },
    ];
    const probed = await Promise.all(
      ext.map((p) => (p.configured ? this.lists[p.id].get() : Promise.resolve(undefined))),
    );
    const providers: ProviderStatus[] = [
      {
        id: 'offline',
        name: 'Built-in offline engine (answers from skill documents)',
        configured: true,
        active: active === 'offline',
        offline: true,
        endpoint: null,
        reachable: true,
        defaultModel: OFFLINE_MODEL_ID,
        models: [OFFLINE_MODEL_ID],
        error: null,
      },
      ...ext.map((p, i): ProviderStatus => {
        const r = probed[i];
        return {
          id: p.id,
          name: p.name,
          configured: p.configured,
          active: active === p.id,
          offline: false,
          endpoint: safeUrl(p.endpoint),
          reachable: r ? r.ok : null,
          defaultModel: defaultModelOf(c, p.id),
          models: r?.ok ? r.value : [],
          error: r && !r.ok ? r.error : null,
        };
      }),
    ];
    return { active: { provider: active, model: defaultModelOf(c, active) }, providers };
  }

  /** The Ollama server status for `/api/health`. */
  async localLlm(): Promise<Static<typeof LocalLlmStatus>> {
    const r = await this.lists.ollama.get();
    return {
      status: r.ok ? 'connected' : 'unreachable',
      endpoint: safeUrl(this.config.LOCAL_LLM_BASE_URL),
      reachable: r.ok,
      activeModel: this.config.LOCAL_LLM_MODEL,
      availableModels: r.ok ? r.value : [],
      error: r.ok ? null : r.error,
    };
  }

  /** Whether the active provider answers (the offline engine always does). */
  async activeReachable(): Promise<boolean> {
    const p = activeLlmProvider(this.config);
    if (p === 'offline') return true;
    return (await this.lists[p].get()).ok;
  }
}
