import type { Router } from 'express';
import type { Database } from '@care/db';
import type { Logger } from '@care/service-kit';
import type { CatalogService } from '../catalog/catalog.service';
import type { CatalogStore } from '../catalog/catalog.store';
import { activeLlmProvider, type AppConfig } from '../config';
import { OFFLINE_MODEL_ID } from '../models/models.service';
import { createChatProvider } from '../providers/provider.factory';
import type { ChatProvider } from '../providers/provider.types';
import { ThreadsService } from '../threads/threads.service';
import { MemoryClient } from '../tools/memory.client';
import { recallMemoryTool, saveMemoryTool } from '../tools/memory.tools';
import { readSkillReferenceTool } from '../tools/read-skill-reference.tool';
import { searchCatalogTool } from '../tools/search-catalog.tool';
import { ToolRegistry } from '../tools/tool-registry';
import type { ToolDefinition } from '../tools/tool.types';
import { AgentRouter } from './agent-router';
import { chatCatalogFrom } from './catalog-adapter';
import { createChatRouter, type ChatStreamRegistry } from './chat.routes';
import { ChatService } from './chat.service';
import type { CareConsultMetrics } from '../metrics/care-consult.metrics';
import type { ChatAudit, RedFlagDetector } from './chat.types';

/** What the chat feature is built from (the app's deps fit, plus the safety detector). */
export interface ChatFeatureDeps {
  config: AppConfig;
  logger: Logger;
  database: Database;
  catalog: CatalogStore;
  catalogService: CatalogService;
  audit: ChatAudit;
  detectRedFlag: RedFlagDetector;
  clock?: () => Date;
  fetch?: typeof fetch;
  /** Overrides the configured provider (tests, benchmarks). */
  provider?: ChatProvider;
  /** Streams open and refusals by category (ADR 0012). */
  consultMetrics?: CareConsultMetrics;
  /** Where open chat streams register for shutdown. */
  streams?: ChatStreamRegistry;
  /** The agent router (built and warmed by the app's deps); default: lexical only. */
  agentRouter?: AgentRouter;
}

/** The built feature: its router and the parts tests and main may want to reach. */
export interface ChatFeature {
  router: Router;
  chat: ChatService;
  threads: ThreadsService;
  provider: ChatProvider;
  registry: ToolRegistry;
}

/**
 * Builds the chat engine from configuration: the active provider (LLM_PROVIDER or the first key set, else the
 * offline engine), the tool registry (memory tools only when MEMORY_BASE_URL is set), threads, and the router.
 */
export function createChatFeature(deps: ChatFeatureDeps): ChatFeature {
  const { config } = deps;
  const catalog = chatCatalogFrom(deps.catalogService, () => deps.catalog.snapshot().activeAgents);
  const provider =
    deps.provider ??
    createChatProvider(
      { ...config, provider: activeLlmProvider(config), offlineModel: OFFLINE_MODEL_ID, offlineTokenDelayMs: config.CHAT_OFFLINE_TOKEN_DELAY_MS, timeoutMs: config.CHAT_TURN_TIMEOUT_MS },
      catalog,
    );
  const tools: ToolDefinition[] = [readSkillReferenceTool(catalog), searchCatalogTool((q, n) => catalog.search(q, n))];
  let memory: MemoryClient | undefined;
  if (config.MEMORY_BASE_URL) {
    memory = new MemoryClient({ baseUrl: config.MEMORY_BASE_URL, apiKey: config.MEMORY_API_KEY, timeoutMs: config.MEMORY_TIMEOUT_MS, fetchFn: deps.fetch });
    tools.push(recallMemoryTool(memory), saveMemoryTool(memory));
  }
  const registry = new ToolRegistry(tools);
  const threads = new ThreadsService(deps.database, config.CHAT_TURN_TIMEOUT_MS + 5000, deps.clock);
  const chat = new ChatService({
    catalog,
    router: deps.agentRouter ?? new AgentRouter(catalog, undefined, deps.logger),
    provider,
    registry,
    memory,
    threads,
    audit: deps.audit,
    detectRedFlag: deps.detectRedFlag,
    logger: deps.logger,
    settings: {
      maxToolRounds: config.CHAT_MAX_TOOL_ROUNDS,
      turnTimeoutMs: config.CHAT_TURN_TIMEOUT_MS,
      maxTokens: config.CHAT_MAX_TOKENS,
      recentUserMessages: config.CHAT_RECENT_USER_MESSAGES,
    },
  });
  return {
    router: createChatRouter({ chat, threads, heartbeatMs: config.CHAT_HEARTBEAT_MS, metrics: deps.consultMetrics, streams: deps.streams }),
    chat,
    threads,
    provider,
    registry,
  };
}
