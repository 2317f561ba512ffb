import { Router } from 'express';
import { validate, callerOf } from '@care/service-kit';
import { isTenantAdmin } from '../auth/auth.middleware';
import type { AppDeps } from '../app';
import { AuditListQuery } from './audit.schemas';
import type { AuditQuery } from './audit.service';

/** `GET /api/audit`: the caller's tenant events, newest first, paged by cursor, without any bodies. */
export function auditRoutes(deps: Pick<AppDeps, 'audit'>): Router {
  const router = Router();
  router.get('/api/audit', validate({ query: AuditListQuery }), async (req, res) => {
    const p = callerOf(req);
    const page = await deps.audit.list(
      { tenantId: p.tenantId, userId: p.userId, admin: isTenantAdmin(p) },
      res.locals.query as AuditQuery,
    );
    res.json(page);
  });
  return router;
}
