import {
  RelayError,
  issueRelayTicket,
  resolveRelayError,
  resolveRelayTicket,
  type NonceStore,
  type RelayKeys,
  type RelayResolution,
} from '@care/crypto';
import type { RelayTicketIssued, RelayTicketRequest, Static } from '@care/contracts';
import { AppError, type Logger } from '@care/service-kit';
import type { AuditInput } from '../audit/audit.service';
import { isSignedTicketRejection, toRelayProblem } from './relay.errors';
import type { CallbackParameters } from './relay.query';

/** Settings and collaborators of {@link RelayService}. */
export interface RelayServiceOptions {
  keys: RelayKeys;
  nonceStore: NonceStore;
  companionScheme: string;
  /** Forward an `http` issuer on a loopback host (the dev profile; prod forwards https issuers only, ADR 0504). */
  allowLoopbackHttpIssuer: boolean;
  /** Current time in milliseconds. */
  now: () => number;
  audit: { record(input: AuditInput): Promise<void> };
  /** Tenant that callback events are recorded under: the ticket names a user, not a tenant. */
  auditTenantId: string;
  logger: Logger;
}

/** The authenticated caller asking for a ticket. */
export interface RelayCaller {
  userId: string;
  tenantId: string;
}

/** Per-request context: the request id for audit and the request's child logger. */
export interface RelayRequestContext {
  requestId?: string;
  log?: Logger;
}

/** Audit reason of a callback that relayed the provider's error response to the app (ADR 0504). */
const PROVIDER_ERROR_RELAYED = 'RELAY_PROVIDER_ERROR';

// What a Location header may hold; the URLs the relay builds are always ASCII (WHATWG serialisation plus form
// encoding), so this never fires, but if it did the answer must be a 400, not a header error turned 500.
const HEADER_SAFE = /^[\x21-\x7e]+$/;

/**
 * Issues relay tickets for authenticated users and resolves callbacks (ADR 0500, 0501). Never logs or audits the
 * ticket or the authorization code: audit events carry the outcome, the user and connection ids and the error
 * code; log lines carry the connection id and the error code.
 */
export class RelayService {
  constructor(private readonly opts: RelayServiceOptions) {}

  /** Issues a ticket bound to the caller; RelayError codes become 400 problems (503 for server faults). */
  issue(
    caller: RelayCaller,
    body: RelayTicketRequest,
    ctx: RelayRequestContext = {},
  ): Static<typeof RelayTicketIssued> {
    const base = {
      tenantId: caller.tenantId,
      actorId: caller.userId,
      action: 'relay.ticket.issue',
      resourceType: 'relay_connection',
      resourceId: body.connection_id,
      requestId: ctx.requestId,
    };
    try {
      const issued = issueRelayTicket(
        {
          uid: caller.userId,
          pid: body.profile_id,
          cid: body.connection_id,
          cb: body.callback_url,
          ttlSeconds: body.ttl_seconds,
        },
        this.opts.keys,
        { now: this.opts.now, companionScheme: this.opts.companionScheme },
      );
      void this.opts.audit.record({ ...base, outcome: 'success' });
      return { ticket: issued.ticket, expires_at: issued.expiresAt.toISOString() };
    } catch (err) {
      if (err instanceof RelayError)
        void this.opts.audit.record({ ...base, outcome: 'failure', meta: { reason: err.code } });
      throw toRelayProblem(err, 'issue');
    }
  }

  /**
   * Runs the six resolution checks (ADR 0502) on a callback and returns the redirect target: the ticket's callback with `code`,
   * `state` and `iss`, or, for a provider's error response, with `error`, `error_description`, `state` and `iss`
   * (the ticket is spent either way, ADR 0504). Rejections of a ticket whose signature matched (replayed, callback
   * not allowed, too long...) are audited with the ticket's user and connection; unsigned junk and expired tickets
   * are only logged, so anonymous traffic cannot fill the audit table.
   */
  async resolve(params: CallbackParameters, ctx: RelayRequestContext = {}): Promise<string> {
    const log = ctx.log ?? this.opts.logger;
    const common = {
      relayTicket: params.state,
      issuer: params.iss,
      allowLoopbackHttpIssuer: this.opts.allowLoopbackHttpIssuer,
      consumedNonces: this.opts.nonceStore,
      keys: this.opts.keys,
      now: this.opts.now,
      companionScheme: this.opts.companionScheme,
    };
    let result: RelayResolution;
    try {
      result =
        params.error === undefined
          ? await resolveRelayTicket({ ...common, authorizationCode: params.code })
          : await resolveRelayError({
              ...common,
              error: params.error,
              errorDescription: params.errorDescription,
            });
      if (!HEADER_SAFE.test(result.redirect_target)) {
        throw new AppError('RELAY_CALLBACK_NOT_ALLOWED', 'callback URL is not on the allowlist', 400);
      }
    } catch (err) {
      if (err instanceof RelayError) this.reportRejection(err, params.state, log, ctx);
      throw toRelayProblem(err, 'resolve');
    }
    const connectionId = result.connection_id;
    if (params.error === undefined) {
      this.auditCallback(result.user_id, connectionId, 'success', undefined, ctx);
      log.info({ relay: { outcome: 'resolved', connectionId } }, 'relay callback resolved');
    } else {
      // The provider's code is a validated short token (RFC 6749 charset, no markup); its description is not kept.
      this.auditCallback(result.user_id, connectionId, 'failure', PROVIDER_ERROR_RELAYED, ctx, params.error);
      log.info(
        { relay: { outcome: 'provider_error', connectionId, providerError: params.error } },
        'relay callback relayed a provider error',
      );
    }
    return result.redirect_target;
  }

  // Expired tickets are logged but not audited: one captured ticket stays "expired" forever and would let anyone
  // write audit rows at will. Every other signed rejection needs a live ticket or the key, so it is audited.
  private reportRejection(
    err: RelayError,
    ticket: string | undefined,
    log: Logger,
    ctx: RelayRequestContext,
  ): void {
    const ids = isSignedTicketRejection(err.code) ? authenticIds(ticket) : undefined;
    const entry = { relay: { outcome: 'rejected', reason: err.code, connectionId: ids?.cid } };
    if (!ids) return log.debug(entry, 'relay callback rejected');
    if (err.code === 'RELAY_EXPIRED') return log.info(entry, 'relay callback rejected');
    this.auditCallback(ids.uid, ids.cid, 'failure', err.code, ctx);
    log.warn(entry, 'relay callback rejected');
  }

  private auditCallback(
    uid: string,
    cid: string,
    outcome: 'success' | 'failure',
    reason: string | undefined,
    ctx: RelayRequestContext,
    providerError?: string,
  ): void {
    void this.opts.audit.record({
      tenantId: this.opts.auditTenantId,
      actorId: uid,
      action: 'relay.callback.resolve',
      resourceType: 'relay_connection',
      resourceId: cid,
      outcome,
      requestId: ctx.requestId,
      ...(reason ? { meta: { reason, providerError } } : {}),
    });
  }
}

/**
 * User and connection ids of a ticket that resolveRelayTicket already authenticated (called only for codes raised
 * after the HMAC matched and the payload passed its strict canonical decoding), so reading them is safe.
 */
function authenticIds(ticket: string | undefined): { uid: string; cid: string } | undefined {
  if (typeof ticket !== 'string') return undefined;
  try {
    const segment = ticket.slice(0, ticket.indexOf('.'));
    const payload = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8')) as {
      uid?: unknown;
      cid?: unknown;
    };
    return typeof payload.uid === 'string' && typeof payload.cid === 'string'
      ? { uid: payload.uid, cid: payload.cid }
      : undefined;
  } catch {
    return undefined;
  }
}
