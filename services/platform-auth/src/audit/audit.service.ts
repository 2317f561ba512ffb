import type { Database, Tx } from '@care/db';
import type { Request } from 'express';
import { requestIdOf, storableJson, storableText, type Logger } from '@care/service-kit';
import { insertAuthEvent, type AuthEvent } from './audit.repository';

/** Where a request came from, recorded with its audit events (and counted by the login throttle). */
export interface ClientInfo {
  ip: string;
  requestId: string;
}

/** The client of a request: its address (as `TRUST_PROXY` decides, ADR 0009) and its request id. */
export function clientOf(req: Request): ClientInfo {
  return { ip: req.ip ?? '', requestId: requestIdOf(req) };
}

const MAX_FIELD = 512;
const field = (v: string | null | undefined) =>
  typeof v === 'string' ? storableText(v).slice(0, MAX_FIELD) : (v ?? null);

/**
 * The event as it can be stored: every text field and every string inside `detail` made storable (no NUL, no
 * control character, no unpaired surrogate; ADR 0008), so a value an attacker chose (an email, a forwarded
 * address) can neither fail the insert nor, inside a transaction, roll back the change it audits.
 */
function storableEvent(event: AuthEvent): AuthEvent {
  return {
    type: event.type,
    tenantId: field(event.tenantId),
    userId: field(event.userId),
    email: field(event.email),
    ip: field(event.ip),
    requestId: field(event.requestId),
    detail: (storableJson(event.detail ?? {}) ?? {}) as Record<string, unknown>,
  };
}

/** Records audit events in the database and the log; failures to audit are logged, never hidden. */
export class AuditTrail {
  constructor(private readonly deps: { db: Database; logger: Logger; clock: () => Date }) {}

  /** Writes inside `tx` when given (atomic with the audited change), else in its own system transaction. */
  async record(raw: AuthEvent, tx?: Tx): Promise<void> {
    const event = storableEvent(raw);
    const at = this.deps.clock();
    if (tx) await insertAuthEvent(tx, event, at);
    else await this.deps.db.withSystem((sys) => insertAuthEvent(sys, event, at));
    this.deps.logger.info(
      { audit: event.type, tenantId: event.tenantId, userId: event.userId, requestId: event.requestId },
      'audit event',
    );
  }
}
