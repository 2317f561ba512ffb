import http from 'node:http';
import fc from 'fast-check';

/** One operation to fuzz: an Express-style path (`/api/things/:id`) and, when it takes JSON, the body's schema. */
export interface FuzzRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** JSON Schema (TypeBox) of the body; valid bodies are generated from it, then mutated. */
  body?: unknown;
  /** JSON Schema of the query object. */
  query?: unknown;
  /** Values that make a path parameter valid (ids that exist), mixed with hostile ones. */
  params?: Record<string, string[]>;
}

/** Options of {@link fuzzHttp}. */
export interface HttpFuzzOptions {
  /** `http://127.0.0.1:<port>` of the app, listening on a real socket. */
  baseUrl: string;
  routes: FuzzRoute[];
  /** Header sets a request is sent with (e.g. none, a user token, an admin token); a hostile set is added. */
  headerSets: Array<Record<string, string>>;
  /** How many requests to send. */
  requests: number;
  /** Path answering 200 when the service is healthy, checked after the run. */
  healthPath: string;
  /** Headers of the health check. */
  healthHeaders?: Record<string, string>;
  seed?: number;
  /** Requests in flight at once (default 4). */
  concurrency?: number;
}

/** One request as sent. */
export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

/** What a run saw. */
export interface HttpFuzzReport {
  sent: number;
  byStatus: Record<number, number>;
  /** Requests answered 5xx (or not answered): each with the status and the start of the answer. */
  failures: Array<{
    request: { method: string; path: string; headers: Record<string, string>; body?: string };
    status: number;
    answer: string;
  }>;
  /** Status of the health check after the run. */
  healthStatus: number;
}

type Schema = Record<string, unknown>;

/** Percent-encodes the UTF-8 bytes of `s` (unpaired surrogates become U+FFFD instead of a URIError). */
const pct = (s: string): string =>
  [...Buffer.from(s, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).padStart(2, '0').toUpperCase()}`,
    )
    .join('');

const HOSTILE_SEGMENTS = [
  '%ff',
  '%',
  '%2',
  '%00',
  'a%00b',
  '%c0%af',
  '%e0%80',
  '__proto__',
  'constructor',
  'prototype',
  '..',
  '%2e%2e',
  '%2F',
  'x'.repeat(2048),
  '%ed%a0%80',
  'NaN',
  '-1',
  '0',
  '1e309',
  ' ',
  '%20',
  '\u00e9',
  'null',
  'undefined',
  "'",
  '"',
  '<script>',
];
const HOSTILE_STRINGS = [
  '',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  '\u001b[2J',
  'x'.repeat(5000),
  '__proto__',
  '../../etc/passwd',
  '%ff',
  "'; drop table users; --",
  '\u202e',
  '\ufeff',
  '𝕏',
];

/** Arbitrary JSON-ish values for anywhere a schema is silent or a mutation wants noise. */
const noise: fc.Arbitrary<unknown> = fc.oneof(
  { depthSize: 'small', maxDepth: 3 },
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.constantFrom(1, 'a', null), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.constantFrom(1, 'a', null), { maxKeys: 3 }),
);

/** A generator of values valid (mostly) under a TypeBox / JSON Schema, with hostile strings mixed in. */
function schemaArbitrary(schema: unknown, depth = 0): fc.Arbitrary<unknown> {
  const s = (schema ?? {}) as Schema;
  if (depth > 6) return fc.constant(null);
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  const alternatives = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (alternatives?.length) return fc.oneof(...alternatives.map((a) => schemaArbitrary(a, depth + 1)));
  const type = Array.isArray(s.type) ? (s.type as string[])[0] : (s.type as string | undefined);
  switch (type) {
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, unknown>;
      const required = ((s.required as string[] | undefined) ?? []).filter((k) => k in props);
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, v] of Object.entries(props)) model[k] = schemaArbitrary(v, depth + 1);
      return fc.record(model, { requiredKeys: required }) as fc.Arbitrary<unknown>;
    }
    case 'array': {
      const min = Number(s.minItems ?? 0);
      const max = Math.min(Number(s.maxItems ?? min + 4), min + 4);
      return fc.array(schemaArbitrary(s.items, depth + 1), { minLength: min, maxLength: max });
    }
    case 'string': {
      const min = Number(s.minLength ?? 0);
      const max = Math.min(Number(s.maxLength ?? 60), 200);
      const plain = fc.string({ minLength: min, maxLength: Math.max(min, max) });
      const formatted =
        s.format === 'date-time'
          ? fc
              .date({ noInvalidDate: true, min: new Date('1970-01-01'), max: new Date('2100-01-01') })
              .map((d) => d.toISOString())
          : s.format === 'uri'
            ? fc.webUrl()
            : s.format === 'email'
              ? fc.emailAddress()
              : s.format === 'uuid'
                ? fc.uuid()
                : plain;
      return fc.oneof(
        { weight: 6, arbitrary: formatted },
        { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
      );
    }
    case 'integer':
      return fc.oneof(
        {
          weight: 5,
          arbitrary: fc.integer({ min: Number(s.minimum ?? -1000), max: Number(s.maximum ?? 100000) }),
        },
        { weight: 1, arbitrary: fc.constantFrom(-1, 0, 2 ** 31, Number.MAX_SAFE_INTEGER, 1.5) },
      );
    case 'number':
      return fc.oneof(
        fc.double({ min: Number(s.minimum ?? -1e6), max: Number(s.maximum ?? 1e6), noNaN: true }),
        fc.constantFrom(-0, 1e308, 0.1),
      );
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return noise;
  }
}

/** Mutations of a valid JSON value: drop a key, add one, swap a value for noise, wrap it. */
function mutateValue(value: unknown): fc.Arbitrary<unknown> {
  const obj =
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  const keys = obj ? Object.keys(obj) : [];
  const options: fc.Arbitrary<unknown>[] = [
    fc.constant(value),
    noise.map((n) => [value, n]),
    fc.constant([value]),
  ];
  if (obj) {
    options.push(fc.tuple(fc.string({ maxLength: 12 }), noise).map(([k, v]) => ({ ...obj, [k]: v })));
    if (keys.length) {
      options.push(
        fc.constantFrom(...keys).map((k) => Object.fromEntries(Object.entries(obj).filter(([x]) => x !== k))),
      );
      options.push(fc.tuple(fc.constantFrom(...keys), noise).map(([k, v]) => ({ ...obj, [k]: v })));
    }
  }
  return fc.oneof(...options);
}

/** Byte-level mutations of a serialised body: flip, insert, delete, truncate, nest deeply, or replace it. */
const byteMutation = (bytes: Buffer): fc.Arbitrary<Buffer> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant(bytes) },
    fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })).map(([i, b]) => {
      const out = Buffer.from(bytes);
      if (out.length) out[i % out.length] = b;
      return out;
    }),
    fc.tuple(fc.nat(), fc.uint8Array({ maxLength: 8 })).map(([i, ins]) => {
      const at = bytes.length ? i % bytes.length : 0;
      return Buffer.concat([bytes.subarray(0, at), Buffer.from(ins), bytes.subarray(at)]);
    }),
    fc.nat().map((i) => bytes.subarray(0, bytes.length ? i % bytes.length : 0)),
    fc.integer({ min: 1, max: 20_000 }).map((d) => Buffer.from('['.repeat(d) + ']'.repeat(d))),
    fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)),
    fc
      .constantFrom(
        '{"__proto__":{"admin":true}}',
        '{"a":"\\udfff"}',
        '{"a":"\\u0000"}',
        '{',
        'null',
        '[]',
        '""',
        '1e999',
        '{"a":1,"a":2}',
      )
      .map((t) => Buffer.from(t)),
  );

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/json; charset=bogus',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=XyZ',
  'multipart/form-data',
  'application/merge-patch+json',
  '',
];

function fillPath(route: FuzzRoute): fc.Arbitrary<string> {
  const names = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
  const value = (name: string) =>
    fc.oneof(
      {
        weight: 3,
        arbitrary: route.params?.[name]?.length ? fc.constantFrom(...route.params[name]!) : fc.uuid(),
      },
      { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS) },
      { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }).map(pct) },
      { weight: 1, arbitrary: fc.string({ maxLength: 12 }).map((x) => x.replace(/[/?#]/g, '')) },
    );
  return fc
    .tuple(fc.tuple(...names.map(value)), fc.constantFrom('', '', '', '/', '//', '/extra', '/..', '/%ff'))
    .map(([vals, tail]) => {
      let i = 0;
      return route.path.replace(/:([A-Za-z0-9_]+)/g, () => vals[i++] ?? '') + tail;
    });
}

function queryString(route: FuzzRoute): fc.Arbitrary<string> {
  const fromSchema = route.query
    ? schemaArbitrary(route.query).map((q) =>
        Object.entries((q ?? {}) as Record<string, unknown>)
          .map(([k, v]) => `${pct(k)}=${pct(String(v))}`)
          .join('&'),
      )
    : fc.constant('');
  const raw = fc.constantFrom(
    'a=%ff',
    'limit=-1',
    'limit=1e9',
    'tenantId=%00',
    'x[__proto__][y]=1',
    'cursor=!!!',
    'q=' + 'z'.repeat(3000),
    'tag=a&tag=b',
    '=',
    '&&&',
    'limit=1&limit=2',
  );
  return fc
    .oneof(
      { weight: 3, arbitrary: fc.constant('') },
      { weight: 3, arbitrary: fromSchema },
      { weight: 2, arbitrary: raw },
    )
    .map((q) => (q ? `?${q}` : ''));
}

/** The request generator: schema-valid bodies and paths, then structural and byte-level mutations. */
function requestArbitrary(
  routes: FuzzRoute[],
  headerSets: Array<Record<string, string>>,
): fc.Arbitrary<FuzzRequest> {
  const hostileHeaders: Array<Record<string, string>> = [
    { authorization: 'Bearer' },
    { authorization: 'Bearer a.b.c' },
    { authorization: 'Basic Zm9vOmJhcg==' },
    { 'x-tenant-id': '__proto__' },
    { 'x-tenant-id': '../../x' },
    { 'x-api-key': 'x' },
    { 'content-encoding': 'gzip' },
    { 'x-forwarded-for': 'not-an-ip, ::1' },
  ];
  const headerSet = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...headerSets) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(...hostileHeaders)
        .chain((h) => fc.constantFrom(...headerSets).map((base) => ({ ...base, ...h }))),
    },
  );
  return fc.constantFrom(...routes).chain((route) => {
    const withBody = route.method !== 'GET' && route.method !== 'DELETE';
    const body: fc.Arbitrary<Buffer | undefined> = withBody
      ? schemaArbitrary(route.body)
          .chain(mutateValue)
          .map((v) => Buffer.from(JSON.stringify(v) ?? 'null'))
          .chain(byteMutation)
      : fc.option(fc.constant(Buffer.from('{"unexpected":true}')), { freq: 8 }).map((b) => b ?? undefined);
    const method = fc.oneof(
      { weight: 12, arbitrary: fc.constant(route.method) },
      { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD') },
    );
    // Node's client refuses characters outside U+0021..U+00FF in a request target: those are sent percent-encoded.
    const target = fc
      .tuple(fillPath(route), queryString(route))
      .map(([p, q]) => (p + q).replace(/[^\u0021-\u00ff]/g, pct));
    return fc
      .record({
        method,
        path: target,
        headers: headerSet,
        body,
        contentType: fc.constantFrom(...CONTENT_TYPES),
      })
      .map(({ method: m, path, headers, body: b, contentType }) => {
        const h: Record<string, string> = { ...headers };
        if (b !== undefined) {
          if (contentType) h['content-type'] = contentType;
          h['content-length'] = String(b.length);
        }
        return { method: m, path, headers: h, body: b };
      });
  });
}

function send(
  baseUrl: string,
  agent: http.Agent,
  r: FuzzRequest,
): Promise<{ status: number; answer: string }> {
  const url = new URL(baseUrl);
  return new Promise((resolve) => {
    const req = http.request(
      { host: url.hostname, port: url.port, method: r.method, path: r.path, headers: r.headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < 2048) chunks.push(c);
          size += c.length;
          // SSE and other long answers: the status is what counts.
          if (size > 64_000) res.destroy();
        });
        const done = () =>
          resolve({
            status: res.statusCode ?? 0,
            answer: Buffer.concat(chunks).toString('utf8').slice(0, 500),
          });
        res.on('end', done);
        res.on('close', done);
      },
    );
    req.setTimeout(20_000, () => req.destroy(new Error('timeout')));
    req.on('error', (err) => resolve({ status: 0, answer: `transport error: ${err.message}` }));
    if (r.body) req.end(r.body);
    else req.end();
  });
}

/**
 * Sends `requests` generated requests (fast-check, seeded) to a service listening on a real socket and reports every
 * 5xx or unanswered request, then checks its health. Requests are sent in small concurrent waves.
 */
export async function fuzzHttp(opts: HttpFuzzOptions): Promise<HttpFuzzReport> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.concurrency ?? 4 });
  const all = fc.sample(requestArbitrary(opts.routes, opts.headerSets), {
    numRuns: opts.requests,
    seed: opts.seed ?? 20261125,
  });
  const byStatus: Record<number, number> = {};
  const failures: HttpFuzzReport['failures'] = [];
  const width = opts.concurrency ?? 4;
  let next = 0;
  const worker = async () => {
    while (next < all.length) {
      const r = all[next++]!;
      const { status, answer } = await send(opts.baseUrl, agent, r);
      byStatus[status] = (byStatus[status] ?? 0) + 1;
      if (status >= 500 || status === 0) {
        failures.push({
          request: {
            method: r.method,
            path: r.path.slice(0, 300),
            headers: r.headers,
            body: r.body?.toString('utf8').slice(0, 300),
          },
          status,
          answer,
        });
      }
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  const health = await send(opts.baseUrl, agent, {
    method: 'GET',
    path: opts.healthPath,
    headers: opts.healthHeaders ?? {},
  });
  agent.destroy();
  return { sent: all.length, byStatus, failures, healthStatus: health.status };
}
