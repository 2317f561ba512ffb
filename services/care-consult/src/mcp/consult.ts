// One consult turn for the MCP `consult` tool (ADR 0427): the same ChatService entry points as POST /api/chat
// (`prepare` screens for red flags, picks the agent and takes the caller's thread; `run` answers), with the
// streamed events collected into one result instead of being written as SSE.
import type { ChatMessage, ChatRequest, ConsultArgs, ConsultResult, Static } from '@care/contracts';
import { AppError } from '@care/service-kit';
import type { ChatEvent } from '../chat/chat-events';
import type { ChatService } from '../chat/chat.service';
import type { ChatCaller } from '../chat/chat.types';
import type { ThreadsService } from '../threads/threads.service';

type Message = Static<typeof ChatMessage>;
type Result = Static<typeof ConsultResult>;

/** Most earlier messages a consult turn carries from the caller's thread (ChatRequest allows 200 in all). */
export const CONSULT_HISTORY_MESSAGES = 40;
const HISTORY_CHECKPOINTS = 50;

const sameMessage = (a: { role: string; content: string }, b: { role: string; content: string }) =>
  a.role === b.role && a.content === b.content;

/**
 * The conversation so far from a thread's checkpoints, oldest first. A checkpoint stores the messages its
 * request carried plus the reply: a client that resends the whole conversation stores a prefix-extended copy
 * (kept once), one that sends only the new question stores one exchange (appended).
 */
export function conversationOf(
  checkpoints: Array<{ messages: Array<{ role: string; content: string }> }>,
): Message[] {
  let conversation: Array<{ role: string; content: string }> = [];
  for (const c of checkpoints) {
    const extends_ =
      c.messages.length >= conversation.length &&
      conversation.every((m, i) => sameMessage(m, c.messages[i]!));
    conversation = extends_ ? [...c.messages] : [...conversation, ...c.messages];
  }
  return conversation
    .filter(
      (m): m is Message => (m.role === 'user' || m.role === 'assistant') && typeof m.content === 'string',
    )
    .slice(-CONSULT_HISTORY_MESSAGES);
}

/**
 * Earlier messages of `threadId` when it is the caller's own thread (tenant AND user: ThreadsService.history
 * answers 404 for anyone else's); an unknown or foreign id gives none, and `prepare` then creates the thread
 * or refuses it (404) exactly as for /api/chat.
 */
async function earlierMessages(
  threads: ThreadsService,
  caller: ChatCaller,
  threadId: string | undefined,
): Promise<Message[]> {
  if (!threadId) return [];
  try {
    const page = await threads.history({ tenantId: caller.tenantId, userId: caller.userId }, threadId, {
      limit: HISTORY_CHECKPOINTS,
    });
    return conversationOf([...page.checkpoints].reverse());
  } catch (err) {
    if (err instanceof AppError && err.status === 404) return [];
    throw err;
  }
}

interface Citation {
  n: number;
  kind: string;
  id: string;
  title: string;
  document_id?: string;
}

/** Sources of a `suggestions` frame when the engine sends them (grounded answers); anything malformed is skipped. */
function citationsOf(data: unknown): Citation[] {
  const sources = (data as { sources?: unknown }).sources;
  if (!Array.isArray(sources)) return [];
  return sources.flatMap((s: unknown): Citation[] => {
    const c = s as Partial<Citation>;
    if (
      typeof c?.n !== 'number' ||
      !Number.isInteger(c.n) ||
      c.n < 1 ||
      typeof c.kind !== 'string' ||
      typeof c.id !== 'string' ||
      typeof c.title !== 'string'
    )
      return [];
    return [
      {
        n: c.n,
        kind: c.kind,
        id: c.id,
        title: c.title,
        ...(typeof c.document_id === 'string' ? { document_id: c.document_id } : {}),
      },
    ];
  });
}

/** Collects the frames of one turn into the consult result. */
export class TurnCollector {
  private readonly tokens: string[] = [];
  readonly result: Result = {
    thread_id: '',
    checkpoint_id: '',
    agent_id: null,
    agent_name: null,
    routed: false,
    provider: '',
    model: '',
    status: 'complete',
    answer: '',
    citations: [],
    suggestions: [],
    tools_used: [],
    refusal: null,
    error: null,
  };

  /** The emit function handed to ChatService.run. */
  readonly emit = (e: ChatEvent): void => {
    const r = this.result;
    switch (e.event) {
      case 'message':
        Object.assign(r, {
          thread_id: e.data.thread_id,
          checkpoint_id: e.data.checkpoint_id,
          agent_id: e.data.agent_id,
          agent_name: e.data.agent_name,
          routed: e.data.routed,
          provider: e.data.provider,
          model: e.data.model,
        });
        break;
      case 'token':
        this.tokens.push(e.data.content);
        break;
      case 'tool_end':
        r.tools_used.push({ tool: e.data.tool, status: e.data.status });
        break;
      case 'suggestions':
        r.suggestions = [...e.data.items];
        r.citations = citationsOf(e.data);
        break;
      case 'refusal':
        r.status = 'refused';
        r.refusal = { reason: e.data.reason, category: e.data.category, message: e.data.message };
        break;
      case 'error':
        r.status = 'error';
        r.error = { code: e.data.code, message: e.data.message };
        break;
      default:
        break;
    }
  };

  /** The finished result: the answer is the streamed text, or the refusal message. */
  finish(): Result {
    this.result.answer = this.result.refusal ? this.result.refusal.message : this.tokens.join('');
    return this.result;
  }
}

/** What a consult turn needs. */
export interface ConsultDeps {
  chat: ChatService;
  threads: ThreadsService;
  /** Called for every refusal (the chat route counts them by category). */
  onRefusal?: (category: string) => void;
  /** Shutdown hook shared with the chat route: ends the turn when the drain window is over. */
  track?: (end: () => void) => () => void;
}

/**
 * Runs one screened turn for `caller`: earlier messages only from the caller's own thread, then
 * `ChatService.prepare` (validation, red-flag screen, agent, thread lease: 4xx errors are thrown as for
 * /api/chat) and `ChatService.run`.
 */
export async function consult(
  deps: ConsultDeps,
  caller: ChatCaller,
  args: Static<typeof ConsultArgs>,
  signal: AbortSignal,
): Promise<Result> {
  const earlier = await earlierMessages(deps.threads, caller, args.thread_id);
  const request: ChatRequest = {
    messages: [...earlier, { role: 'user', content: args.question }],
    ...(args.thread_id ? { thread_id: args.thread_id } : {}),
    ...(args.agent_id ? { agent_id: args.agent_id } : {}),
    ...(args.allow_clinical !== undefined ? { allow_clinical: args.allow_clinical } : {}),
  };
  const turn = await deps.chat.prepare(caller, request);
  const collector = new TurnCollector();
  const abort = new AbortController();
  const onAbort = () => abort.abort(signal.reason);
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  const untrack = deps.track?.(() => abort.abort(new Error('server shutting down')));
  try {
    await deps.chat.run(
      turn,
      (e) => {
        if (e.event === 'refusal') deps.onRefusal?.(e.data.category);
        collector.emit(e);
      },
      abort.signal,
    );
  } finally {
    untrack?.();
    signal.removeEventListener('abort', onAbort);
  }
  return collector.finish();
}
