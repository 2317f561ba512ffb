// care-consult's Prometheus metrics (ADR 0012): HTTP RED metrics plus chat streams open, refusals by category and
// relay outcomes; metrics on the API port only in dev without MANAGEMENT_PORT; liveness without the database.
import request from 'supertest';
import { createMetrics } from '@care/service-kit';
import { aUser } from './builders/user.builder';
import { chat, createChatContext } from './chat/support/chat-app';
import { createTestContext, type TestContext } from './support/test-app';

/** The value of the sample `name` whose labels include `labels` (any order), or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries(
      [...(m[2] ?? '').matchAll(/([a-z_]+)="([^"]*)"/g)].map((l) => [l[1], l[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

describe('care-consult metrics', () => {
  let ctx: TestContext;
  const token = aUser().inTenant('tenant-metrics').token();
  beforeAll(async () => {
    ctx = await createChatContext({ overrides: { metrics: createMetrics('care-consult', false) } });
  });
  afterAll(() => ctx.close());

  it('counts refusals by category, streams open and closed, relay outcomes and requests by route', async () => {
    const { frames } = await chat(ctx.app, token, {
      messages: [
        { role: 'user', content: 'My dad suddenly has a drooping face and slurred speech right now' },
      ],
    });
    expect(frames.some((f) => f.event === 'refusal')).toBe(true);
    await request(ctx.app).get('/api/relay/callback?code=abc&state=not-a-ticket').expect(400);

    const res = await request(ctx.app).get('/actuator/prometheus').expect(200);
    expect(sample(res.text, 'care_consult_chat_refusals_total', { category: 'stroke_fast' })).toBe(1);
    expect(sample(res.text, 'care_consult_chat_streams_open')).toBe(0);
    const rejected = { operation: 'resolve', outcome: 'rejected' };
    expect(sample(res.text, 'care_consult_relay_outcomes_total', rejected)).toBe(1);
    expect(
      sample(res.text, 'http_server_requests_seconds_count', {
        method: 'POST',
        route: '/api/chat',
        status: '200',
      }),
    ).toBe(1);
  });

  it('keeps metrics off the API port with a management port, and answers liveness without the database', async () => {
    const other = await createTestContext({
      env: { MANAGEMENT_PORT: '9464' },
      overrides: { metrics: createMetrics('care-consult', false) },
    });
    try {
      await request(other.app).get('/actuator/prometheus').expect(404);
      await other.deps.database.close();
      expect((await request(other.app).get('/actuator/health/liveness').expect(200)).body).toEqual({
        status: 'UP',
      });
    } finally {
      await other.close().catch(() => undefined);
    }
  });
});
