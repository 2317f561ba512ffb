import { Router, type Request, type RequestHandler } from 'express';
import { AppError, ForbiddenError, NotFoundError, UnauthorizedError, type HealthRegistry, type Metrics } from '@care/service-kit';
import type { BuildInfo } from './build-info';
import { metricNames, metricView } from './metrics-view';

/** What the actuator endpoints read. */
export interface ActuatorDeps {
  health: HealthRegistry;
  metrics: Metrics;
  build: BuildInfo;
  profile: string;
  /** Configuration values (names shown, values masked). */
  config: Readonly<Record<string, unknown>>;
  /** Process environment (names shown, values masked). */
  env: NodeJS.ProcessEnv;
  /**
   * Who may read env, metrics and prometheus (ADR 0005): `admin` (a `platform:admin` token; the main port), `open`
   * (the separate management port, reachable only inside the cluster) or `off` (not served: the main port when a
   * management port is set). Health and info are always open.
   */
  sensitive: 'admin' | 'open' | 'off';
}

const MASK = '******';
const OPEN_ENDPOINTS = ['health', 'health/liveness', 'health/readiness', 'info'];
const SENSITIVE_ENDPOINTS = ['metrics', 'prometheus', 'env'];

/**
 * Guards the sensitive endpoints on the main port: the access pipeline leaves `/actuator/**` open and only remembers
 * a bad token (`res.locals.authError`), so the caller is checked here. No token or a bad one: 401; a token without
 * `platform:admin`: 403.
 */
const requirePlatformAdmin: RequestHandler = (req, res, next) => {
  if (!req.principal) return next(res.locals.authError ?? new UnauthorizedError());
  if (!req.principal.scopes.includes('platform:admin')) return next(new ForbiddenError('The scope platform:admin is required', 'INSUFFICIENT_SCOPE'));
  next();
};

const masked = (names: Iterable<string>) => Object.fromEntries([...names].sort().map((n) => [n, { value: MASK }]));

/**
 * `/actuator` with Spring Boot Actuator semantics: health `{status, components}` (503 unless UP), liveness
 * (process only), readiness (database; OUT_OF_SERVICE while draining), info (build + git), and, as `sensitive`
 * allows, metrics (`{names}` and `/metrics/{name}`), Prometheus text, and env with every value masked.
 */
export function createActuatorRouter(d: ActuatorDeps): Router {
  const router = Router();
  const ENDPOINTS = d.sensitive === 'off' ? OPEN_ENDPOINTS : [...OPEN_ENDPOINTS, ...SENSITIVE_ENDPOINTS];
  const base = (req: Request) => `${req.protocol}://${req.get('host') ?? 'localhost'}/actuator`;
  router.get('/', (req, res) => {
    const links: Record<string, { href: string; templated: boolean }> = { self: { href: base(req), templated: false } };
    for (const e of ENDPOINTS) links[e.replace('/', '-')] = { href: `${base(req)}/${e}`, templated: false };
    links['metrics-requiredMetricName'] = { href: `${base(req)}/metrics/{requiredMetricName}`, templated: true };
    res.json({ _links: links });
  });
  router.get('/health', async (_req, res) => {
    const report = await d.health.readiness();
    const components = { ...report.components, ping: { status: 'UP' }, livenessState: { status: d.health.liveness().status }, readinessState: { status: report.status } };
    res.status(report.status === 'UP' ? 200 : 503).json({ status: report.status, components });
  });
  router.get('/health/liveness', (_req, res) => {
    res.json({ status: d.health.liveness().status });
  });
  router.get('/health/readiness', async (_req, res) => {
    const { status } = await d.health.readiness();
    res.status(status === 'UP' ? 200 : 503).json({ status });
  });
  router.get('/health/:component', async (req, res) => {
    const { components } = await d.health.readiness();
    const name = req.params.component as string;
    // Own keys only: `toString` is a property of every object, not a component (ADR 0005).
    const component = Object.hasOwn(components, name) ? components[name] : undefined;
    if (!component) throw new NotFoundError('No such health component', 'HEALTH_COMPONENT_NOT_FOUND');
    res.status(component.status === 'UP' ? 200 : 503).json(component);
  });
  router.get('/info', (_req, res) => {
    const b = d.build;
    res.json({
      app: { name: b.name, version: b.version },
      build: { artifact: b.name.replace(/^@care\//, ''), name: b.name, version: b.version, time: b.time },
      git: { branch: b.git.branch, commit: { id: b.git.commit.slice(0, 7), full: b.git.commit, time: b.git.time } },
    });
  });
  if (d.sensitive === 'off') return router;
  if (d.sensitive === 'admin') router.use(['/metrics', '/prometheus', '/env'], requirePlatformAdmin);
  router.get('/metrics', async (_req, res) => {
    res.json({ names: await metricNames(d.metrics.registry) });
  });
  router.get('/metrics/:name', async (req, res) => {
    const raw = req.query.tag;
    const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
    const tags = list.map((t) => {
      const s = String(t);
      const i = s.indexOf(':');
      if (i < 1) throw new AppError('INVALID_TAG', 'tag must be key:value', 400);
      return [s.slice(0, i), s.slice(i + 1)] as [string, string];
    });
    const view = await metricView(d.metrics.registry, req.params.name as string, tags);
    if (!view) throw new NotFoundError('No such metric', 'METRIC_NOT_FOUND');
    res.json(view);
  });
  router.get('/prometheus', async (_req, res) => {
    res.type(d.metrics.registry.contentType).send(await d.metrics.registry.metrics());
  });
  router.get('/env', (_req, res) => {
    res.json({
      activeProfiles: [d.profile],
      propertySources: [
        { name: 'applicationConfig', properties: masked(Object.keys(d.config)) },
        { name: 'systemEnvironment', properties: masked(Object.keys(d.env)) },
      ],
    });
  });
  router.get('/env/:name', (req, res) => {
    const name = req.params.name as string;
    const source = name in d.config ? 'applicationConfig' : name in d.env ? 'systemEnvironment' : undefined;
    if (!source) throw new NotFoundError('No such property', 'PROPERTY_NOT_FOUND');
    res.json({ property: { source, value: MASK }, activeProfiles: [d.profile] });
  });
  return router;
}
