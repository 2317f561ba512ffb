import { AnthropicProvider } from './anthropic.provider';
import { BuiltinProvider } from './builtin/builtin.provider';
import { OllamaProvider } from './ollama.provider';
import { OpenAiProvider } from './openai.provider';
import type { ChatProvider } from './provider.types';
import type { LlmProviderName, LlmSettings } from '../config';
import type { SkillLibrary } from './skill-library';

/** The configuration the factory reads (the service config fits). */
export type ProviderSettings = LlmSettings & {
  provider: LlmProviderName;
  offlineModel: string;
  offlineTokenDelayMs?: number;
  timeoutMs?: number;
};

/** Builds the configured chat provider; the offline engine reads skills from `library`. */
export function createChatProvider(settings: ProviderSettings, library: SkillLibrary): ChatProvider {
  switch (settings.provider) {
    case 'openai':
      return new OpenAiProvider({
        apiKey: settings.LLM_API_KEY ?? '',
        baseUrl: settings.LLM_BASE_URL,
        model: settings.LLM_MODEL,
        timeoutMs: settings.timeoutMs,
      });
    case 'anthropic':
      return new AnthropicProvider({
        apiKey: settings.ALT_LLM_API_KEY ?? '',
        baseUrl: settings.ALT_LLM_BASE_URL,
        model: settings.ALT_LLM_MODEL,
        timeoutMs: settings.timeoutMs,
      });
    case 'ollama':
      return new OllamaProvider({ baseUrl: settings.LOCAL_LLM_BASE_URL, model: settings.LOCAL_LLM_MODEL });
    case 'offline':
      return new BuiltinProvider({
        library,
        model: settings.offlineModel,
        tokenDelayMs: settings.offlineTokenDelayMs,
      });
  }
}
