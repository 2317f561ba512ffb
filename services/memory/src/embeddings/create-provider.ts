import type { Config } from '../config';
import { BuiltinEmbeddingProvider } from './builtin.provider';
import type { EmbeddingProvider } from './embedding-provider';
import { HashingEmbeddingProvider } from './hashing.provider';
import { OllamaEmbeddingProvider } from './ollama.provider';
import { OpenAiEmbeddingProvider } from './openai.provider';

/** Builds the provider `EMBEDDING_PROVIDER` names (ADR 0303). */
export function createEmbeddingProvider(config: Config): EmbeddingProvider {
  switch (config.EMBEDDING_PROVIDER) {
    case 'ollama':
      return new OllamaEmbeddingProvider({
        baseUrl: config.LOCAL_LLM_BASE_URL,
        model: config.LOCAL_LLM_MODEL,
        dimensions: config.EMBEDDING_DIMENSIONS,
        timeoutMs: config.EMBEDDING_TIMEOUT_MS,
      });
    case 'openai':
      return new OpenAiEmbeddingProvider({
        baseUrl: config.OPENAI_BASE_URL,
        apiKey: config.OPENAI_API_KEY ?? '',
        model: config.OPENAI_EMBEDDING_MODEL,
        dimensions: config.EMBEDDING_DIMENSIONS,
        timeoutMs: config.EMBEDDING_TIMEOUT_MS,
      });
    case 'hashing':
      return new HashingEmbeddingProvider(config.HASHING_DIMENSIONS);
    default:
      return new BuiltinEmbeddingProvider();
  }
}
