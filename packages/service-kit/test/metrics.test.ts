// HTTP RED metrics: one histogram by method, matched route (full mount path, also for errors) and status.
import { Router } from 'express';
import request from 'supertest';
import { AppError, createLogger, createMetrics, createServiceApp, finalizeApp } from '../src';

function buildApp() {
  const metrics = createMetrics('kit-test', false);
  const app = createServiceApp({
    logger: createLogger({ name: 't', level: 'silent' }),
    corsOrigins: [],
    metrics,
  });
  const inner = Router();
  inner.post('/items/:id', (req, res) => {
    if (req.params.id === 'bad') throw new AppError('VALIDATION_FAILED', 'bad id', 400);
    res.json({ ok: true });
  });
  const outer = Router();
  outer.use('/v1', inner);
  app.use('/api', outer);
  return { app: finalizeApp(app), metrics };
}

async function count(
  metrics: ReturnType<typeof createMetrics>,
  labels: Record<string, string>,
): Promise<number> {
  const json = await metrics.httpDuration.get();
  const hit = json.values.find(
    (v) =>
      v.metricName === 'http_server_requests_seconds_count' &&
      Object.entries(labels).every(([k, x]) => (v.labels as Record<string, unknown>)[k] === x),
  );
  return hit?.value ?? 0;
}

describe('HTTP request metrics', () => {
  it('labels success and error answers with the full route template, never the raw path', async () => {
    const { app, metrics } = buildApp();
    await request(app).post('/api/v1/items/42').expect(200);
    await request(app).post('/api/v1/items/bad').expect(400);
    await request(app).get('/api/v1/nowhere/123').expect(404);
    expect(await count(metrics, { method: 'POST', route: '/api/v1/items/:id', status: '200' })).toBe(1);
    expect(await count(metrics, { method: 'POST', route: '/api/v1/items/:id', status: '400' })).toBe(1);
    expect(await count(metrics, { method: 'GET', route: 'UNMATCHED', status: '404' })).toBe(1);
  });
});
