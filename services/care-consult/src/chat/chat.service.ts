import { AppError, ServiceUnavailableError, ValidationError, type Logger } from '@care/service-kit';
import type { ChatRequest } from '@care/contracts';
import type { ChatProvider } from '../providers/provider.types';
import type { MemoryClient } from '@care/clients';
import type { ToolRegistry } from '../tools/tool-registry';
import type { ThreadsService, TurnRecord, TurnStatus } from '../threads/threads.service';
import type { AgentRouter } from './agent-router';
import type { ChatCatalog } from './chat-catalog';
import { DONE_EVENT, type EmitFn } from './chat-events';
import { answerTurn } from './chat-answer';
import { newTurnState } from './model-loop';
import type { ChatAudit, ChatCaller, ChatSettings, PreparedTurn, RedFlagDetector } from './chat.types';

/** Dependencies of {@link ChatService}. */
export interface ChatServiceDeps {
  catalog: ChatCatalog;
  /** Picks the specialist when the request names none (ADR 0415). */
  router: Pick<AgentRouter, 'route'>;
  provider: ChatProvider;
  registry: ToolRegistry;
  /** The memory service, when configured: the knowledge-base search of every turn (ADR 0421). */
  memory?: MemoryClient;
  threads: ThreadsService;
  audit: ChatAudit;
  detectRedFlag: RedFlagDetector;
  logger: Pick<Logger, 'warn' | 'error'>;
  settings: ChatSettings;
}

/**
 * One consultation turn: `prepare` decides everything that can still fail with an HTTP status (no user
 * message 400, unknown agent 404, busy thread 409); `run` streams it. The safety breaker runs before any model
 * call; a turn always ends with `done` unless the client left, and is always recorded with how it ended.
 */
export class ChatService {
  constructor(private readonly deps: ChatServiceDeps) {}

  /** Validates the conversation, picks the agent, screens for red flags and takes the thread. */
  async prepare(caller: ChatCaller, request: ChatRequest): Promise<PreparedTurn> {
    const users = request.messages.filter((m) => m.role === 'user').map((m) => m.content);
    const latest = users[users.length - 1];
    if (latest === undefined || !latest.trim()) {
      throw new ValidationError('The conversation needs a user message', [
        { pointer: '/messages', detail: 'must contain a non-empty user message' },
      ]);
    }
    const recent = users.slice(-1 - this.deps.settings.recentUserMessages, -1);
    const redFlag = await this.screen(latest, recent);
    let agent = request.agent_id ? this.deps.catalog.agent(request.agent_id) : undefined;
    if (request.agent_id && (!agent || agent.status !== 'active')) {
      throw new AppError('AGENT_NOT_FOUND', `No active agent with id "${request.agent_id}"`, 404);
    }
    const routed = !request.agent_id && !redFlag;
    let route: PreparedTurn['route'];
    if (routed) {
      route = await this.deps.router.route(users.slice(-3), request.allow_clinical === true);
      agent = route?.agent;
      if (!agent) throw new ServiceUnavailableError('No specialist agent is available', 'NO_AGENTS');
    }
    const lease = request.thread_id
      ? await this.deps.threads.begin(caller, request.thread_id)
      : this.deps.threads.beginNew(caller);
    return { caller, request, latest, agent, routed, route, redFlag, lease };
  }

  // Every request is screened before anything else can reach a model; a screen that cannot run is a 503,
  // never a request let through unscreened.
  private async screen(latest: string, recent: string[]): Promise<PreparedTurn['redFlag']> {
    try {
      return await this.deps.detectRedFlag(latest, recent);
    } catch (err) {
      this.deps.logger.error({ err }, 'red-flag screen failed; the request is refused');
      throw new ServiceUnavailableError(
        'The safety screen is not available; please try again shortly',
        'SAFETY_SCREEN_UNAVAILABLE',
      );
    }
  }

  /** Streams the turn through `emit`; never throws. `signal` aborts when the client disconnects. */
  async run(turn: PreparedTurn, emit: EmitFn, clientSignal: AbortSignal): Promise<void> {
    const { provider, settings } = this.deps;
    const timeout = AbortSignal.timeout(settings.turnTimeoutMs);
    const signal = AbortSignal.any([clientSignal, timeout]);
    const state = newTurnState();
    const refusal = turn.redFlag;
    let status: TurnStatus = 'complete';
    let error: TurnRecord['error'] = null;
    let suggestions: string[] = [];
    emit({
      event: 'message',
      data: {
        type: 'message',
        role: 'assistant',
        thread_id: turn.lease.threadId,
        checkpoint_id: turn.lease.checkpointId,
        agent_id: turn.agent?.id ?? null,
        agent_name: turn.agent?.name ?? null,
        routed: turn.routed,
        ...(turn.route && {
          routing: {
            confidence: Math.round(turn.route.confidence * 1000) / 1000,
            fallback: turn.route.via === 'fallback',
            alternatives: turn.route.alternatives.map((a) => a.id),
          },
        }),
        provider: refusal ? 'safety' : provider.id,
        model: refusal ? 'red-flag-detector' : provider.model,
        offline: refusal ? true : provider.offline,
      },
    });
    try {
      await turn.lease.ready;
    } catch (err) {
      // A new thread's row could not be taken (database down, or another request won the fresh id): nothing
      // was done and nothing is recorded; the client learns why.
      const code = err instanceof AppError ? err.code : 'THREAD_UNAVAILABLE';
      if (!(err instanceof AppError))
        this.deps.logger.error({ err, requestId: turn.caller.requestId }, 'chat thread could not be taken');
      emit({
        event: 'error',
        data: { type: 'error', code, message: 'The conversation could not be started; please try again' },
      });
      emit(DONE_EVENT);
      return;
    }
    try {
      if (refusal) {
        emit({
          event: 'refusal',
          data: {
            type: 'refusal',
            reason: refusal.reason,
            message: refusal.message,
            category: refusal.category,
          },
        });
        status = 'refused';
      } else {
        suggestions = await answerTurn({ ...this.deps, turn, state, emit, signal });
      }
      emit(DONE_EVENT);
    } catch (err) {
      if (clientSignal.aborted) status = 'aborted';
      else {
        status = 'error';
        error = timeout.aborted
          ? { code: 'TURN_TIMEOUT', message: 'The answer took too long and was stopped' }
          : err instanceof AppError
            ? { code: err.code, message: err.message }
            : { code: 'CHAT_FAILED', message: 'The answer could not be completed' };
        if (!(err instanceof AppError))
          this.deps.logger.error({ err, requestId: turn.caller.requestId }, 'chat turn failed');
        emit({ event: 'error', data: { type: 'error', ...error } });
        emit(DONE_EVENT);
      }
    }
    await this.record(turn, { status, error, suggestions, state });
  }

  private async record(
    turn: PreparedTurn,
    outcome: {
      status: TurnStatus;
      error: TurnRecord['error'];
      suggestions: string[];
      state: ReturnType<typeof newTurnState>;
    },
  ): Promise<void> {
    const { caller, lease, redFlag } = turn;
    const reply = redFlag ? redFlag.message : outcome.state.reply;
    const messages = turn.request.messages.map((m) => ({ role: m.role, content: m.content }));
    if (reply) messages.push({ role: 'assistant', content: reply });
    const record: TurnRecord = {
      agentId: turn.agent?.id ?? null,
      status: outcome.status,
      provider: redFlag ? null : this.deps.provider.id,
      model: redFlag ? null : this.deps.provider.model,
      messages,
      toolCalls: outcome.state.toolCalls,
      suggestions: outcome.suggestions,
      refusal: redFlag
        ? { reason: redFlag.reason, category: redFlag.category, message: redFlag.message }
        : null,
      error: outcome.error,
    };
    try {
      await this.deps.threads.complete(caller, lease, record);
    } catch (err) {
      this.deps.logger.error({ err, requestId: caller.requestId }, 'chat checkpoint could not be stored');
      await this.deps.threads.release(caller, lease).catch(() => undefined);
    }
    void this.deps.audit.record({
      tenantId: caller.tenantId,
      actorId: caller.userId,
      action: redFlag ? 'chat.refusal' : 'chat.turn',
      resourceType: 'chat_thread',
      resourceId: lease.threadId,
      outcome: redFlag ? 'denied' : outcome.status === 'complete' ? 'success' : 'failure',
      requestId: caller.requestId,
      meta: {
        status: outcome.status,
        agent_id: turn.agent?.id ?? null,
        routed: turn.routed,
        route_fallback: turn.route ? turn.route.via === 'fallback' : undefined,
        provider: record.provider,
        model: record.model,
        tool_calls: outcome.state.toolCalls.length,
        tokens: outcome.state.tokens,
        checkpoint_id: lease.checkpointId,
        category: redFlag?.category,
        cue: redFlag?.matched,
        error_code: outcome.error?.code,
      },
    });
  }
}

export type { ChatRequest };
