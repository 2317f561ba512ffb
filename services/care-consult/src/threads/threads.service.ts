import { randomUUID } from 'node:crypto';
import { TenantRequiredError, type Database } from '@care/db';
import type { ThreadCheckpoint, ThreadHistory, ThreadList, Static } from '@care/contracts';
import { ConflictError, NotFoundError, ValidationError } from '@care/service-kit';
import {
  acquireTurn,
  completeTurn,
  findThread,
  listCheckpoints,
  listThreads,
  releaseTurn,
  type CheckpointRow,
} from './threads.repository';

/** Whose thread: tenant (RLS) and user (owner). */
export interface ThreadScope {
  tenantId: string;
  userId: string;
}

/** A running turn's hold on its thread. */
export interface TurnLease {
  threadId: string;
  turnId: string;
  checkpointId: string;
  parentId: string | null;
  startedAt: Date;
  /**
   * Settles when the thread is held. Already settled for a named thread (taken before the stream opens, so a
   * busy one gets 409); for a new thread the row is written while the stream opens, since a fresh id cannot be
   * busy: the turn awaits it before any work and stops with an error frame if another request won it.
   */
  ready: Promise<void>;
}

/** How a turn ended. */
export type TurnStatus = 'complete' | 'aborted' | 'refused' | 'error';

/** What a finished turn stores. */
export interface TurnRecord {
  agentId: string | null;
  status: TurnStatus;
  provider: string | null;
  model: string | null;
  messages: Array<{ role: string; content: string }>;
  toolCalls: unknown[];
  suggestions: string[];
  refusal: Record<string, string> | null;
  error: { code: string; message: string } | null;
}

/** A checkpoint as `GET /api/chat/threads/{thread_id}` shows it. */
type CheckpointView = Static<typeof ThreadCheckpoint>;
/** One page of a thread's history, newest first. */
type ThreadHistoryPage = Static<typeof ThreadHistory>;
/** One page of the caller's threads, most recently active first; a title is the first user message, shortened. */
type ThreadListPage = Static<typeof ThreadList>;

/** Longest title in the thread list. */
const TITLE_MAX = 80;

function titleOf(messages: Array<{ role: string; content: string }> | null): string | null {
  const first = messages?.find((m) => m.role === 'user' && typeof m.content === 'string' && m.content.trim());
  if (!first) return null;
  const text = first.content.replace(/\s+/g, ' ').trim();
  return text.length > TITLE_MAX ? `${text.slice(0, TITLE_MAX - 1).trimEnd()}\u2026` : text;
}

// The list cursor: base64url of `<updated_at ISO>|<thread_id>` of the last thread of the previous page.
function encodeListCursor(updatedAt: Date, threadId: string): string {
  return Buffer.from(`${updatedAt.toISOString()}|${threadId}`, 'utf8').toString('base64url');
}

function decodeListCursor(cursor: string): { updatedAt: Date; threadId: string } {
  const invalid = () =>
    new ValidationError('Invalid cursor', [
      { pointer: '/cursor', detail: 'must be a cursor returned by this endpoint' },
    ]);
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const bar = text.indexOf('|');
  const at = text.slice(0, bar);
  const updatedAt = new Date(at);
  const threadId = text.slice(bar + 1);
  if (bar < 0 || Number.isNaN(updatedAt.getTime()) || updatedAt.toISOString() !== at || !threadId)
    throw invalid();
  return { updatedAt, threadId };
}

function view(row: CheckpointRow): CheckpointView {
  return {
    checkpoint_id: row.checkpointId,
    parent_id: row.parentId,
    seq: row.seq,
    agent_id: row.agentId,
    status: row.status,
    provider: row.provider,
    model: row.model,
    messages: row.messages,
    tool_calls: row.toolCalls,
    suggestions: row.suggestions,
    refusal: row.refusal ?? null,
    error: row.error ?? null,
    started_at: row.startedAt.toISOString(),
    completed_at: row.completedAt.toISOString(),
  };
}

/**
 * Threads and their checkpoints, one per turn, in PostgreSQL under RLS. A turn holds its thread through a
 * lease on the thread row (a second turn gets 409 on every replica); the lease expires after `leaseMs`, the
 * upper bound of a turn, so a crashed replica cannot wedge a thread.
 */
export class ThreadsService {
  /** `leaseMs`: how long a turn holds the thread (the turn's bound plus a margin); an expired lease no longer blocks. */
  constructor(private readonly deps: { database: Database; leaseMs: number; clock?: () => Date }) {}

  private now(): Date {
    return this.deps.clock?.() ?? new Date();
  }

  /** Starts a turn on the caller's thread `threadId` (created when unknown). 409 when busy, 404 when not the caller's. */
  async begin(scope: ThreadScope, threadId: string): Promise<TurnLease> {
    const lease = this.lease(threadId);
    const parentId = await this.acquire(scope, lease);
    return { ...lease, parentId };
  }

  /** Starts a turn on a new thread with a fresh id; the row is written in the background (see `ready`). */
  beginNew(scope: ThreadScope): TurnLease {
    const lease = this.lease(randomUUID());
    const ready = this.acquire(scope, lease).then(() => undefined);
    ready.catch(() => undefined); // observed by the turn; this only keeps an early failure from being unhandled
    return { ...lease, ready };
  }

  private lease(threadId: string): Omit<TurnLease, 'parentId'> & { parentId: null } {
    return {
      threadId,
      turnId: randomUUID(),
      checkpointId: randomUUID(),
      parentId: null,
      startedAt: this.now(),
      ready: Promise.resolve(),
    };
  }

  private async acquire(scope: ThreadScope, lease: Omit<TurnLease, 'parentId'>): Promise<string | null> {
    const now = lease.startedAt;
    if (!scope.tenantId.trim()) throw new TenantRequiredError();
    const result = await acquireTurn(this.deps.database.db, {
      tenantId: scope.tenantId,
      threadId: lease.threadId,
      ownerId: scope.userId,
      turnId: lease.turnId,
      now,
      until: new Date(now.getTime() + this.deps.leaseMs),
    });
    if (!result.ok) {
      if (result.reason === 'busy')
        throw new ConflictError(
          'This thread is answering another request; try again when it is done',
          'THREAD_BUSY',
        );
      throw new NotFoundError(`No thread with id "${lease.threadId}"`, 'THREAD_NOT_FOUND');
    }
    return result.lastCheckpointId;
  }

  /** Stores the turn's checkpoint and frees the thread. */
  async complete(scope: ThreadScope, lease: TurnLease, record: TurnRecord): Promise<number> {
    const now = this.now();
    if (!scope.tenantId.trim()) throw new TenantRequiredError();
    return completeTurn(
      this.deps.database.db,
      lease.turnId,
      {
        tenantId: scope.tenantId,
        threadId: lease.threadId,
        checkpointId: lease.checkpointId,
        parentId: lease.parentId,
        ownerId: scope.userId,
        ...record,
        startedAt: lease.startedAt,
        completedAt: now,
      },
      now,
    );
  }

  /** Frees the thread without a checkpoint (when recording failed). */
  async release(scope: ThreadScope, lease: TurnLease): Promise<void> {
    await this.deps.database.withTenant(scope.tenantId, (tx) =>
      releaseTurn(tx, { threadId: lease.threadId, turnId: lease.turnId }),
    );
  }

  /** A page of the caller's own threads (tenant and user), most recently active first; `cursor` continues. */
  async list(scope: ThreadScope, page: { limit: number; cursor?: string }): Promise<ThreadListPage> {
    const after = page.cursor === undefined ? undefined : decodeListCursor(page.cursor);
    if (!scope.tenantId.trim()) throw new TenantRequiredError();
    return this.deps.database.withTenant(scope.tenantId, async (tx) => {
      const rows = await listThreads(tx, {
        ownerId: scope.userId,
        limit: page.limit + 1,
        after,
      });
      const more = rows.length > page.limit;
      const items = rows.slice(0, page.limit);
      const now = this.now();
      const last = items[items.length - 1];
      return {
        threads: items.map((t) => ({
          thread_id: t.threadId,
          title: titleOf(t.firstMessages),
          agent_id: t.agentId,
          turns: t.turns,
          busy: !!t.busyTurn && !!t.busyUntil && t.busyUntil > now,
          created_at: t.createdAt.toISOString(),
          updated_at: t.updatedAt.toISOString(),
        })),
        next_cursor: more && last ? encodeListCursor(last.updatedAt, last.threadId) : null,
      };
    });
  }

  /** A page of the caller's thread, newest checkpoint first; `cursor` continues from a previous page. */
  async history(
    scope: ThreadScope,
    threadId: string,
    page: { limit: number; cursor?: string },
  ): Promise<ThreadHistoryPage> {
    let beforeSeq: number | undefined;
    if (page.cursor !== undefined) {
      if (!/^[1-9][0-9]{0,8}$/.test(page.cursor)) {
        throw new ValidationError('Invalid cursor', [
          { pointer: '/cursor', detail: 'must be a cursor returned by this endpoint' },
        ]);
      }
      beforeSeq = Number(page.cursor);
    }
    return this.deps.database.withTenant(scope.tenantId, async (tx) => {
      const thread = await findThread(tx, threadId);
      // Another user's thread in the same tenant answers like a missing one: its existence is not revealed.
      if (!thread || thread.ownerId !== scope.userId)
        throw new NotFoundError(`No thread with id "${threadId}"`, 'THREAD_NOT_FOUND');
      const rows = await listCheckpoints(tx, {
        threadId,
        limit: page.limit + 1,
        beforeSeq,
      });
      const more = rows.length > page.limit;
      const items = rows.slice(0, page.limit);
      return {
        thread_id: threadId,
        agent_id: thread.agentId,
        turns: thread.turns,
        busy: !!thread.busyTurn && !!thread.busyUntil && thread.busyUntil > this.now(),
        created_at: thread.createdAt.toISOString(),
        updated_at: thread.updatedAt.toISOString(),
        checkpoints: items.map(view),
        next_cursor: more ? String(items[items.length - 1].seq) : null,
      };
    });
  }
}
