import type { ChatRequest } from '@care/contracts';
import type { RouteDecision } from './agent-router';
import type { ChatAgent } from './chat-catalog';
import type { TurnLease } from '../threads/threads.service';

/** What the red-flag detector reports (the safety module's RedFlagHit fits). */
export interface RedFlag {
  category: string;
  reason: string;
  message: string;
  /** Short normalised cue that matched; audited, never the whole message. */
  matched: string;
}

/**
 * The safety screen: latest user message plus the user turns before it. May be asynchronous (the semantic
 * stage embeds text); it throws rather than let a request through unscreened.
 */
export type RedFlagDetector = (latest: string, recent?: string[]) => RedFlag | null | Promise<RedFlag | null>;

/** The verified caller. */
export interface ChatCaller {
  tenantId: string;
  userId: string;
  requestId?: string;
}

/** Everything decided before the stream opens (so 4xx answers are still possible). */
export interface PreparedTurn {
  caller: ChatCaller;
  request: ChatRequest;
  latest: string;
  agent: ChatAgent | undefined;
  routed: boolean;
  /** How the router chose (routed turns only): confidence, alternatives, a clarifying question below the floor. */
  route?: RouteDecision;
  redFlag: RedFlag | null;
  lease: TurnLease;
}

/** The audit writer (the audit service fits); must never throw. */
export interface ChatAudit {
  record(input: {
    tenantId: string;
    actorId: string;
    action: string;
    resourceType: string;
    resourceId?: string | null;
    outcome: 'success' | 'failure' | 'denied';
    requestId?: string;
    meta?: Record<string, string | number | boolean | null | undefined>;
  }): Promise<void>;
}

/** Bounds of a turn. */
export interface ChatSettings {
  maxToolRounds: number;
  /** Upper bound of one turn; also the thread lease. */
  turnTimeoutMs: number;
  maxTokens?: number;
  /** How many earlier user messages the red-flag detector also reads. */
  recentUserMessages: number;
}
