import { Router } from 'express';
import type { AppDeps } from '../app';
import { tenantMiddleware } from '../http/tenant.middleware';
import { memoryMcpEndpoint } from './memory.mcp';

/**
 * `/mcp`: the memory operations as MCP tools (ADR 0313), with the same services, credentials and partition rules
 * as the REST routes. Only POST is served: GET and DELETE answer 405 (stateless, no server stream, no session).
 */
export function mcpRoutes(
  deps: Parameters<typeof memoryMcpEndpoint>[0] & Pick<AppDeps, 'config' | 'version' | 'logger'>,
): Router {
  const r = Router();
  const mcp = memoryMcpEndpoint(deps, deps.config.OPERATING_MODE, deps.version, deps.logger);
  r.post('/mcp', tenantMiddleware, mcp);
  r.get('/mcp', mcp);
  r.delete('/mcp', mcp);
  return r;
}
