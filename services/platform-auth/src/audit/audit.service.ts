import type { Database, Tx } from '@care/db';
import type { Logger } from '@care/service-kit';
import { insertAuthEvent, type AuthEvent } from './audit.repository';

/** Records audit events in the database and the log; failures to audit are logged, never hidden. */
export interface AuditTrail {
  /** Writes inside `tx` when given (atomic with the audited change), else in its own system transaction. */
  record(event: AuthEvent, tx?: Tx): Promise<void>;
}

/** Creates the audit trail over the service database. */
export function createAuditTrail(db: Database, logger: Logger, clock: () => Date): AuditTrail {
  return {
    async record(event, tx) {
      const at = clock();
      if (tx) await insertAuthEvent(tx, event, at);
      else await db.withSystem((sys) => insertAuthEvent(sys, event, at));
      logger.info({ audit: event.type, tenantId: event.tenantId, userId: event.userId, requestId: event.requestId }, 'audit event');
    },
  };
}
