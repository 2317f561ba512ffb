// care-consult as an MCP server (ADR 0427): the catalog reads of /api/agents and /api/skills, a skill
// reference's text, and `consult`, one screened turn through the same ChatService as POST /api/chat.
import { Router, type RequestHandler } from 'express';
import {
  AgentDetail,
  AgentList,
  AgentsQuery,
  ConsultArgs,
  ConsultResult,
  GetAgentArgs,
  SkillList,
  SkillReferenceArgs,
  SkillReferenceText,
  Type,
} from '@care/contracts';
import { callerOf, requestIdOf, type Logger } from '@care/service-kit';
import { createMcpServer, defineTool, mcpEndpoint, type McpTool } from '@care/service-kit/mcp';
import type { AuditInput } from '../audit/audit.service';
import { agentSearchAudit, type CatalogService } from '../catalog/catalog.service';
import type { ChatService } from '../chat/chat.service';
import type { ChatCaller } from '../chat/chat.types';
import type { ThreadsService } from '../threads/threads.service';
import type { AppDeps } from '../app';
import { requireBearer } from '../auth/auth.middleware';
import { consult } from './consult';

/** What the care-consult MCP server is built from (parts of the app's deps and its chat feature). */
export interface CareConsultMcpDeps {
  catalogService: CatalogService;
  chat: ChatService;
  threads: ThreadsService;
  audit: { record(e: AuditInput): Promise<unknown> };
  logger: Logger;
  version: string;
  /** Counts refusals by category, as the chat route does. */
  onRefusal?: (category: string) => void;
  /** Shutdown hook shared with the chat route. */
  track?: (end: () => void) => () => void;
}

type Tool = McpTool<ChatCaller>;

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const NoArgs = Type.Object({}, { additionalProperties: false });

/** The care-consult tools. */
function careConsultTools(d: CareConsultMcpDeps): Tool[] {
  const audit = (c: ChatCaller, e: Omit<AuditInput, 'tenantId' | 'actorId' | 'requestId' | 'outcome'>) =>
    void d.audit.record({
      ...e,
      tenantId: c.tenantId,
      actorId: c.userId,
      requestId: c.requestId,
      outcome: 'success',
    });
  return [
    defineTool({
      name: 'search_agents',
      title: 'Search agents',
      description: 'Find specialist agents by free text, domain or category (as GET /api/agents).',
      input: AgentsQuery,
      output: AgentList,
      hints: READ,
      run: async (q, c: ChatCaller) => {
        const list = d.catalogService.listAgents(q);
        const event = agentSearchAudit(q, list);
        audit(c, { ...event, meta: { ...event.meta, via: 'mcp' } });
        return { result: list };
      },
    }),
    defineTool({
      name: 'get_agent',
      title: 'Get agent',
      description:
        "An agent's manifest, its skills with their reference listings, and its persona (as GET /api/agents/{id}).",
      input: GetAgentArgs,
      output: AgentDetail,
      hints: READ,
      run: async ({ agent_id }, c: ChatCaller) => {
        const agent = d.catalogService.getAgent(agent_id);
        audit(c, {
          action: 'catalog.agent.read',
          resourceType: 'agent',
          resourceId: agent.id,
          meta: { via: 'mcp' },
        });
        return { result: agent };
      },
    }),
    defineTool({
      name: 'list_skills',
      title: 'List skills',
      description: 'The skill packages with their reference counts (as GET /api/skills).',
      input: NoArgs,
      output: SkillList,
      hints: READ,
      run: async (_args, c: ChatCaller) => {
        const list = d.catalogService.listSkills();
        audit(c, {
          action: 'catalog.skills.list',
          resourceType: 'skill',
          meta: { results: list.total, via: 'mcp' },
        });
        return { result: list };
      },
    }),
    defineTool({
      name: 'read_skill_reference',
      title: 'Read skill reference',
      description:
        'The full text of one reference document of a skill (e.g. skill_id "sleep-hygiene", reference "basics.md").',
      input: SkillReferenceArgs,
      output: SkillReferenceText,
      hints: READ,
      run: async ({ skill_id, reference }, c: ChatCaller) => {
        const ref = d.catalogService.readReference(skill_id, reference);
        audit(c, {
          action: 'catalog.reference.read',
          resourceType: 'skill',
          resourceId: skill_id,
          meta: { reference: ref.name, via: 'mcp' },
        });
        return {
          result: {
            skill_id,
            name: ref.name,
            path: ref.path,
            title: ref.title,
            bytes: ref.bytes,
            text: ref.content,
          },
        };
      },
    }),
    defineTool({
      name: 'consult',
      title: 'Consult',
      description:
        'Ask a care question and get one answer with its citations. Screened for emergencies exactly like the chat: a red flag returns status "refused" with the urgent-care message instead of an answer. Pass thread_id to continue one of your own threads.',
      input: ConsultArgs,
      output: ConsultResult,
      // Stores a turn in the caller's thread and audits it; the model (and memory, when configured) is outside.
      hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
      run: async (args, c: ChatCaller, signal) => {
        const result = await consult(d, c, args, signal);
        return { result, isError: result.status === 'error' };
      },
    }),
  ];
}

/** POST /mcp (after the bearer check): one stateless MCP server per request, acting for the token's user. */
function careConsultMcpEndpoint(d: CareConsultMcpDeps): RequestHandler {
  const tools = careConsultTools(d);
  return mcpEndpoint((req) => {
    const p = callerOf(req);
    return createMcpServer<ChatCaller>({
      name: 'care-consult',
      version: d.version,
      instructions:
        'Care consultation: find a specialist agent or skill, read its references, or consult. Emergencies are refused with urgent-care advice; relay that message as is.',
      tools,
      caller: { tenantId: p.tenantId, userId: p.userId, requestId: requestIdOf(req) },
      logger: d.logger,
    });
  });
}

/**
 * `POST /mcp` (ADR 0427): the catalog and one screened consult turn, with the same bearer check as /api (no open
 * routes). `GET` and `DELETE /mcp` answer 405: the server is stateless, with no server stream and no session.
 */
export function mcpRoutes(
  deps: Pick<
    AppDeps,
    | 'catalogService'
    | 'chat'
    | 'threads'
    | 'audit'
    | 'logger'
    | 'version'
    | 'consultMetrics'
    | 'streams'
    | 'verifier'
  >,
): Router {
  const mcp = careConsultMcpEndpoint({
    catalogService: deps.catalogService,
    chat: deps.chat,
    threads: deps.threads,
    audit: deps.audit,
    logger: deps.logger,
    version: deps.version,
    onRefusal: (category) => deps.consultMetrics?.refusals.inc({ category }),
    track: (end) => deps.streams.track?.(end) ?? (() => undefined),
  });
  const auth = requireBearer(deps.verifier, []);
  const router = Router();
  router.post('/mcp', auth, mcp);
  router.get('/mcp', auth, mcp);
  router.delete('/mcp', auth, mcp);
  return router;
}
