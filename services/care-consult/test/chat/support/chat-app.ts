import path from 'node:path';
import request from 'supertest';
import type { Express } from 'express';
import { createTestContext, type TestContext, type TestContextOptions } from '../../support/test-app';
import { parseSse, type Frame } from './sse';

/** The workspace that ships with the service: real agents and skills. */
export const SHIPPED_WORKSPACE = path.join(__dirname, '..', '..', '..', 'workspace');

/** A test app over the shipped workspace (chat routing needs the real catalog). */
export function createChatContext(opts: TestContextOptions = {}): Promise<TestContext> {
  return createTestContext({ workspaceRoot: SHIPPED_WORKSPACE, ...opts });
}

/** POSTs a chat request and returns the response with its frames. */
export async function chat(
  app: Express,
  token: string,
  body: unknown,
): Promise<{ res: request.Response; frames: Frame[]; problem: any }> {
  const res = await request(app)
    .post('/api/chat')
    .set('Authorization', `Bearer ${token}`)
    .send(body as object)
    .buffer(true)
    .parse((r, cb) => {
      let text = '';
      r.setEncoding('utf8');
      r.on('data', (c: string) => (text += c));
      r.on('end', () => cb(null, text));
    });
  const type = String(res.headers['content-type'] ?? '');
  const frames = type.startsWith('text/event-stream') ? parseSse(res.body as string) : [];
  const problem = type.includes('json') ? JSON.parse(res.body as string) : undefined;
  return { res, frames, problem };
}
