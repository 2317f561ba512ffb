import { Router } from 'express';
import { Type } from '@care/contracts';
import { validate } from '@care/service-kit';
import { isTenantAdmin, principalOf } from '../auth/auth.middleware';
import type { AppDeps } from '../app';
import type { AuditQuery } from './audit.service';

/** Query of `GET /api/audit`. */
export const AuditListQuery = Type.Object(
  {
    actorId: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    action: Type.Optional(Type.String({ pattern: '^[a-z0-9_.-]+\\*?$', maxLength: 128 })),
    resourceType: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    resourceId: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    outcome: Type.Optional(
      Type.Union([Type.Literal('success'), Type.Literal('failure'), Type.Literal('denied')]),
    ),
    from: Type.Optional(Type.String({ format: 'date-time' })),
    to: Type.Optional(Type.String({ format: 'date-time' })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  },
  { additionalProperties: false },
);

/** `GET /api/audit`: the caller's tenant events, newest first, paged by cursor, without any bodies. */
export function auditRoutes(deps: Pick<AppDeps, 'audit'>): Router {
  const router = Router();
  router.get('/api/audit', validate({ query: AuditListQuery }), async (req, res) => {
    const p = principalOf(req);
    const page = await deps.audit.list(
      { tenantId: p.tenantId, userId: p.userId, admin: isTenantAdmin(p) },
      res.locals.query as AuditQuery,
    );
    res.json(page);
  });
  return router;
}
