// The operators' listener (ADR 0012): Prometheus text and liveness on their own port, nothing else there.
import { Counter, Registry } from 'prom-client';
import { createLogger, startManagementServer, type ManagementServer } from '../src';

describe('management listener', () => {
  let server: ManagementServer;
  const registry = new Registry();
  const counter = new Counter({ name: 'test_things_total', help: 'things', registers: [registry] });

  beforeAll(async () => {
    server = await startManagementServer({
      port: 0,
      host: '127.0.0.1',
      registry,
      logger: createLogger({ name: 't', level: 'silent' }),
    });
  });
  afterAll(() => server.close());
  const url = (path: string) => `http://127.0.0.1:${server.port}${path}`;

  it('serves the registry in the Prometheus text format at /actuator/prometheus', async () => {
    counter.inc(3);
    const res = await fetch(url('/actuator/prometheus'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(await res.text()).toMatch(/^test_things_total 3$/m);
  });

  it('answers liveness without consulting anything', async () => {
    const res = await fetch(url('/actuator/health/liveness'));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'UP' });
  });

  it.each([
    ['GET', '/api/anything'],
    ['GET', '/actuator/env'],
    ['POST', '/actuator/prometheus'],
  ])('%s %s is a 404 problem: the port serves nothing else', async (method, path) => {
    const res = await fetch(url(path), { method });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(await res.json()).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });
});
