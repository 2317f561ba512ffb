import { Router, type Request, type RequestHandler } from 'express';
import type {
  ActuatorEnv,
  ActuatorEnvProperty,
  ActuatorHealth,
  ActuatorInfo,
  ActuatorLinks,
  ActuatorMetricNames,
  ActuatorStatus,
  Static,
} from '@care/contracts';
import { AppError, ForbiddenError, NotFoundError, UnauthorizedError } from '@care/service-kit';
import type { AppDeps } from '../app';
import { metricNames, metricView } from './metrics-view';

/**
 * Who may read env, metrics and prometheus (ADR 0005): `admin` (a `platform:admin` token; the main port), `open`
 * (the separate management port, reachable only inside the cluster) or `off` (not served: the main port when a
 * management port is set). Health and info are always open.
 */
type SensitiveExposure = 'admin' | 'open' | 'off';

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
  if (!req.principal.scopes.includes('platform:admin'))
    return next(new ForbiddenError('The scope platform:admin is required', 'INSUFFICIENT_SCOPE'));
  next();
};

const masked = (names: Iterable<string>) =>
  Object.fromEntries([...names].sort().map((n) => [n, { value: MASK } as const]));

/**
 * `/actuator` with Spring Boot Actuator semantics: health `{status, components}` (503 unless UP), liveness
 * (process only), readiness (the checks registered on the service's HealthRegistry; OUT_OF_SERVICE while
 * draining), info (build + git), and, as `sensitive` allows, metrics (`{names}` and `/metrics/{name}`),
 * Prometheus text, and env with every value masked.
 */
export function actuatorRoutes(
  d: Pick<AppDeps, 'health' | 'metrics' | 'build' | 'config' | 'env'>,
  sensitive: SensitiveExposure,
): Router {
  const router = Router();
  const profile = d.config.APP_PROFILES_ACTIVE;
  const ENDPOINTS = sensitive === 'off' ? OPEN_ENDPOINTS : [...OPEN_ENDPOINTS, ...SENSITIVE_ENDPOINTS];
  const base = (req: Request) => `${req.protocol}://${req.get('host') ?? 'localhost'}/actuator`;
  router.get('/actuator', (req, res) => {
    const links: Static<typeof ActuatorLinks>['_links'] = { self: { href: base(req), templated: false } };
    for (const e of ENDPOINTS) links[e.replace('/', '-')] = { href: `${base(req)}/${e}`, templated: false };
    links['metrics-requiredMetricName'] = {
      href: `${base(req)}/metrics/{requiredMetricName}`,
      templated: true,
    };
    res.json({ _links: links } satisfies Static<typeof ActuatorLinks>);
  });
  router.get('/actuator/health', async (_req, res) => {
    const report = await d.health.readiness();
    const components = {
      ...report.components,
      ping: { status: 'UP' },
      livenessState: { status: d.health.liveness().status },
      readinessState: { status: report.status },
    };
    res
      .status(report.status === 'UP' ? 200 : 503)
      .json({ status: report.status, components } satisfies Static<typeof ActuatorHealth>);
  });
  router.get('/actuator/health/liveness', (_req, res) => {
    res.json({ status: d.health.liveness().status } satisfies Static<typeof ActuatorStatus>);
  });
  router.get('/actuator/health/readiness', async (_req, res) => {
    const { status } = await d.health.readiness();
    res.status(status === 'UP' ? 200 : 503).json({ status } satisfies Static<typeof ActuatorStatus>);
  });
  router.get('/actuator/health/:component', async (req, res) => {
    const { components } = await d.health.readiness();
    const name = req.params.component as string;
    // Own keys only: `toString` is a property of every object, not a component (ADR 0005).
    const component = Object.hasOwn(components, name) ? components[name] : undefined;
    if (!component) throw new NotFoundError('No such health component', 'HEALTH_COMPONENT_NOT_FOUND');
    res.status(component.status === 'UP' ? 200 : 503).json(component satisfies Static<typeof ActuatorStatus>);
  });
  router.get('/actuator/info', (_req, res) => {
    const b = d.build;
    res.json({
      app: { name: b.name, version: b.version },
      build: { artifact: b.name.replace(/^@care\//, ''), name: b.name, version: b.version, time: b.time },
      git: {
        branch: b.git.branch,
        commit: { id: b.git.commit.slice(0, 7), full: b.git.commit, time: b.git.time },
      },
    } satisfies Static<typeof ActuatorInfo>);
  });
  if (sensitive === 'off') return router;
  if (sensitive === 'admin')
    router.use(['/actuator/metrics', '/actuator/prometheus', '/actuator/env'], requirePlatformAdmin);
  router.get('/actuator/metrics', async (_req, res) => {
    res.json({ names: await metricNames(d.metrics.registry) } satisfies Static<typeof ActuatorMetricNames>);
  });
  router.get('/actuator/metrics/:name', async (req, res) => {
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
  router.get('/actuator/prometheus', async (_req, res) => {
    res.type(d.metrics.registry.contentType).send(await d.metrics.registry.metrics());
  });
  router.get('/actuator/env', (_req, res) => {
    res.json({
      activeProfiles: [profile],
      propertySources: [
        { name: 'applicationConfig', properties: masked(Object.keys(d.config)) },
        { name: 'systemEnvironment', properties: masked(Object.keys(d.env)) },
      ],
    } satisfies Static<typeof ActuatorEnv>);
  });
  router.get('/actuator/env/:name', (req, res) => {
    const name = req.params.name as string;
    const source = name in d.config ? 'applicationConfig' : name in d.env ? 'systemEnvironment' : undefined;
    if (!source) throw new NotFoundError('No such property', 'PROPERTY_NOT_FOUND');
    res.json({ property: { source, value: MASK }, activeProfiles: [profile] } satisfies Static<
      typeof ActuatorEnvProperty
    >);
  });
  return router;
}
