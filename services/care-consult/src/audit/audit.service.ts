import { randomUUID } from 'node:crypto';
import type { Database } from '@care/db';
import type { AuditPage, Static } from '@care/contracts';
import { ForbiddenError, storableText, ValidationError } from '@care/service-kit';
import type { Logger } from '@care/service-kit';
import { insertAuditEvents, listAuditEvents, type NewAuditEventRow } from './audit.repository';

/** Outcome of an audited action. */
export type AuditOutcome = 'success' | 'failure' | 'denied';

/** Scalar metadata only: ids, counts, names of things. Never message or file contents. */
export type AuditMeta = Record<string, string | number | boolean | null | undefined>;

/** What a feature reports after (or instead of) doing something. */
export interface AuditInput {
  tenantId: string;
  actorId: string;
  /** Dotted verb, e.g. `catalog.agent.read`, `attachment.upload`, `chat.completion`, `relay.ticket.issue`. */
  action: string;
  resourceType: string;
  resourceId?: string | null;
  outcome: AuditOutcome;
  requestId?: string;
  meta?: AuditMeta;
}

/** Query of {@link AuditService.list}. */
export interface AuditQuery {
  actorId?: string;
  action?: string;
  resourceType?: string;
  resourceId?: string;
  outcome?: string;
  from?: string;
  to?: string;
  cursor?: string;
  limit?: number;
}

/** A page of events plus the cursor of the next (older) page. */
type AuditEventsPage = Static<typeof AuditPage>;

const MAX_META_KEYS = 20;
const MAX_META_STRING = 200;
const MAX_FIELD = 256;
// Keys that would carry bodies or secrets are dropped even if a caller passes them by mistake.
const FORBIDDEN_META = /content|body|message|text|prompt|password|secret|token|code|ticket|authorization/i;

/** Keeps only short scalar values under harmless keys. */
export function sanitizeMeta(meta: AuditMeta | undefined): Record<string, string | number | boolean | null> {
  const out: Record<string, string | number | boolean | null> = {};
  for (const [k, v] of Object.entries(meta ?? {})) {
    if (Object.keys(out).length >= MAX_META_KEYS) break;
    if (FORBIDDEN_META.test(k) || k.length > 64 || v === undefined || storableText(k) !== k) continue;
    if (typeof v === 'string') out[k] = storableText(v).slice(0, MAX_META_STRING);
    else if (typeof v === 'number') out[k] = Number.isFinite(v) ? v : null;
    else if (typeof v === 'boolean' || v === null) out[k] = v;
  }
  return out;
}

/**
 * The audit writer every feature calls, and the reader behind `GET /api/audit`. `record` never throws and
 * never blocks the request: events queue and are written in batches, one tenant transaction per tenant, on
 * the next turn of the event loop. A failed write is logged (without bodies) and does not fail the caller.
 */
export class AuditService {
  private queue: NewAuditEventRow[] = [];
  private waiters: Array<() => void> = [];
  private scheduled = false;
  private running: Promise<void> = Promise.resolve();

  constructor(private readonly deps: { database: Database; logger: Logger; clock?: () => Date }) {}

  private now(): Date {
    return this.deps.clock?.() ?? new Date();
  }

  /** Queues one event; the promise settles (never rejects) once its batch was written or failed. */
  record(input: AuditInput): Promise<void> {
    // Every field is made storable on its own (ADR 0008): a value an attacker chose (a connection id, a file
    // name) with a NUL or an unpaired surrogate would otherwise fail the whole batch's statement.
    const text = (v: string, max: number) => storableText(v).slice(0, max);
    this.queue.push({
      tenantId: input.tenantId,
      id: randomUUID(),
      occurredAt: this.now(),
      actorId: text(input.actorId, MAX_FIELD),
      action: text(input.action, MAX_FIELD),
      resourceType: text(input.resourceType, MAX_FIELD),
      resourceId: input.resourceId == null ? null : text(String(input.resourceId), MAX_FIELD),
      outcome: input.outcome,
      requestId: input.requestId == null ? null : text(input.requestId, 128),
      meta: sanitizeMeta(input.meta),
    });
    const done = new Promise<void>((resolve) => this.waiters.push(resolve));
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => void this.flush());
    }
    return done;
  }

  /** Writes everything queued so far; resolves when it is stored (used before reads and at shutdown). */
  flush(): Promise<void> {
    this.scheduled = false;
    const batch = this.queue;
    const waiters = this.waiters;
    this.queue = [];
    this.waiters = [];
    // Batches are written one after another so a read that flushed first sees every earlier event.
    this.running = this.running.then(() => this.write(batch)).finally(() => waiters.forEach((w) => w()));
    return this.running;
  }

  private async write(batch: NewAuditEventRow[]): Promise<void> {
    const byTenant = new Map<string, NewAuditEventRow[]>();
    for (const row of batch) byTenant.set(row.tenantId, [...(byTenant.get(row.tenantId) ?? []), row]);
    for (const [tenantId, rows] of byTenant) {
      try {
        await insertAuditEvents(this.deps.database.db, tenantId, rows);
      } catch (err) {
        if (rows.length === 1) {
          this.deps.logger.error(
            { err: (err as Error).message, events: 1, actions: [rows[0]!.action] },
            'audit write failed',
          );
          continue;
        }
        // One event the database refuses must not cost the others of its batch (ADR 0008): write them one by one.
        this.deps.logger.warn(
          { err: (err as Error).message, events: rows.length },
          'audit batch refused; writing its events one by one',
        );
        for (const row of rows) await this.writeOne(tenantId, row);
      }
    }
  }

  private async writeOne(tenantId: string, row: NewAuditEventRow): Promise<void> {
    try {
      await insertAuditEvents(this.deps.database.db, tenantId, [row]);
    } catch (err) {
      this.deps.logger.error(
        { err: (err as Error).message, events: 1, actions: [row.action] },
        'audit write failed',
      );
    }
  }

  /**
   * A page of the caller's tenant events, newest first. Tenant admins see the whole tenant; everyone else
   * sees only their own actions (asking for another actor is 403).
   */
  async list(
    caller: { tenantId: string; userId: string; admin: boolean },
    q: AuditQuery,
  ): Promise<AuditEventsPage> {
    if (!caller.admin && q.actorId !== undefined && q.actorId !== caller.userId) {
      throw new ForbiddenError(
        'Only tenant administrators can read other users\u2019 audit events',
        'AUDIT_FORBIDDEN',
      );
    }
    const before = q.cursor === undefined ? undefined : decodeCursor(q.cursor);
    await this.flush();
    const limit = q.limit ?? 50;
    const rows = await this.deps.database.withTenant(caller.tenantId, (tx) =>
      listAuditEvents(tx, {
        actorId: caller.admin ? q.actorId : caller.userId,
        action: q.action,
        resourceType: q.resourceType,
        resourceId: q.resourceId,
        outcome: q.outcome,
        from: q.from ? new Date(q.from) : undefined,
        to: q.to ? new Date(q.to) : undefined,
        before,
        limit: limit + 1,
      }),
    );
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map((r) => ({ ...r, occurredAt: r.occurredAt.toISOString() })),
      nextCursor: rows.length > limit && last ? encodeCursor(last.occurredAt, last.id) : null,
    };
  }
}

function encodeCursor(occurredAt: Date, id: string): string {
  return Buffer.from(JSON.stringify([occurredAt.toISOString(), id])).toString('base64url');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function decodeCursor(cursor: string): { occurredAt: Date; id: string } {
  try {
    const [time, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, string];
    const occurredAt = new Date(time);
    if (typeof id === 'string' && UUID.test(id) && !Number.isNaN(occurredAt.getTime()))
      return { occurredAt, id };
  } catch {
    // fall through to the validation error
  }
  throw new ValidationError('The cursor is invalid', [
    { pointer: '/query/cursor', detail: 'is not a cursor this API returned' },
  ]);
}
