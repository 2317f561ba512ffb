import { Router, type Request } from 'express';
import { AgentsQuery } from '@care/contracts';
import { callerOf, requestIdOf, validate } from '@care/service-kit';
import type { AppDeps } from '../app';
import type { AuditInput } from '../audit/audit.service';
import { agentSearchAudit } from './catalog.service';

/**
 * `GET /api/agents`, `/api/agents/categories`, `/api/agents/{id}`, `/api/skills`, `/api/skills/{id}`.
 * Reads are audited with ids and counts only; the search text itself is never stored.
 */
export function catalogRoutes(deps: Pick<AppDeps, 'catalogService' | 'audit'>): Router {
  const { catalogService: catalog } = deps;
  const router = Router();
  const audit = (req: Request, e: Omit<AuditInput, 'tenantId' | 'actorId' | 'requestId' | 'outcome'>) => {
    const p = callerOf(req);
    void deps.audit.record({
      ...e,
      tenantId: p.tenantId,
      actorId: p.userId,
      requestId: requestIdOf(req),
      outcome: 'success',
    });
  };

  router.get('/api/agents', validate({ query: AgentsQuery }), (req, res) => {
    const q = res.locals.query as AgentsQuery;
    const list = catalog.listAgents(q);
    audit(req, agentSearchAudit(q, list));
    res.json(list);
  });

  router.get('/api/agents/categories', (req, res) => {
    audit(req, { action: 'catalog.categories.read', resourceType: 'taxonomy' });
    res.json(catalog.categories());
  });

  router.get('/api/agents/:agentId', (req, res) => {
    const agent = catalog.getAgent(req.params.agentId);
    audit(req, { action: 'catalog.agent.read', resourceType: 'agent', resourceId: agent.id });
    res.json(agent);
  });

  router.get('/api/skills', (req, res) => {
    const list = catalog.listSkills();
    audit(req, { action: 'catalog.skills.list', resourceType: 'skill', meta: { results: list.total } });
    res.json(list);
  });

  router.get('/api/skills/:skillId', (req, res) => {
    const skill = catalog.getSkill(req.params.skillId);
    audit(req, { action: 'catalog.skill.read', resourceType: 'skill', resourceId: skill.id });
    res.json(skill);
  });

  return router;
}
