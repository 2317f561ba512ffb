import { activeLlmProvider } from '../config';
import type { AppDeps, AppRuntime } from '../app';
import { OFFLINE_MODEL_ID } from '../models/models.service';
import { createChatProvider } from '../providers/provider.factory';
import { ThreadsService } from '../threads/threads.service';
import { recallMemoryTool, saveMemoryTool } from '../tools/memory.tools';
import { readSkillReferenceTool } from '../tools/read-skill-reference.tool';
import { searchCatalogTool } from '../tools/search-catalog.tool';
import { ToolRegistry } from '../tools/tool-registry';
import type { ToolDefinition } from '../tools/tool.types';
import { chatCatalogFrom } from './catalog-adapter';
import { ChatService } from './chat.service';

/** What the chat services are built from: parts of the app's deps, and the provider override of the runtime. */
export type ChatServicesDeps = Pick<
  AppDeps,
  | 'config'
  | 'logger'
  | 'database'
  | 'catalog'
  | 'catalogService'
  | 'audit'
  | 'clock'
  | 'memory'
  | 'agentRouter'
  | 'redFlagScreen'
> &
  Pick<AppRuntime, 'chatProvider'>;

/**
 * Builds the chat engine from configuration: the active provider (LLM_PROVIDER or the first key set, else the
 * offline engine, unless the runtime passes one), the tool registry (memory tools only when MEMORY_BASE_URL is
 * set), the thread store and the chat service.
 */
export function createChatServices(deps: ChatServicesDeps): Pick<AppDeps, 'chat' | 'threads'> {
  const { config } = deps;
  const catalog = chatCatalogFrom(deps.catalogService, () => deps.catalog.snapshot().activeAgents);
  const provider =
    deps.chatProvider ??
    createChatProvider(
      {
        ...config,
        provider: activeLlmProvider(config),
        offlineModel: OFFLINE_MODEL_ID,
        offlineTokenDelayMs: config.CHAT_OFFLINE_TOKEN_DELAY_MS,
        timeoutMs: config.CHAT_TURN_TIMEOUT_MS,
      },
      catalog,
    );
  const tools: ToolDefinition[] = [
    readSkillReferenceTool(catalog),
    searchCatalogTool((q, n) => catalog.search(q, n)),
  ];
  // Memory tools only when the memory service is configured (MEMORY_BASE_URL).
  const memory = deps.memory;
  if (memory) tools.push(recallMemoryTool(memory), saveMemoryTool(memory));
  const threads = new ThreadsService({
    database: deps.database,
    leaseMs: config.CHAT_TURN_TIMEOUT_MS + 5000,
    clock: deps.clock,
  });
  const screen = deps.redFlagScreen;
  const chat = new ChatService({
    catalog,
    router: deps.agentRouter,
    provider,
    registry: new ToolRegistry(tools),
    memory,
    threads,
    audit: deps.audit,
    detectRedFlag: (latest, recent) => screen.screen(latest, recent),
    logger: deps.logger,
    settings: {
      maxToolRounds: config.CHAT_MAX_TOOL_ROUNDS,
      turnTimeoutMs: config.CHAT_TURN_TIMEOUT_MS,
      maxTokens: config.CHAT_MAX_TOKENS,
      recentUserMessages: config.CHAT_RECENT_USER_MESSAGES,
    },
  });
  return { chat, threads };
}
