import request from 'supertest';
import fc from 'fast-check';
import {
  checkJsonBody,
  createLogger,
  createServiceApp,
  finalizeApp,
  hasControlCharacters,
  hasLoneSurrogate,
  PROTOTYPE_KEYS,
} from '../src';

const silent = createLogger({ name: 'test', level: 'silent' });

function buildApp() {
  const app = createServiceApp({ logger: silent, corsOrigins: [], maxJsonDepth: 8 });
  const seen: unknown[] = [];
  const registry: Record<string, { get(): string }> = { up: { get: () => 'up' } };
  app.get('/items/:id', (req, res) => res.json({ id: req.params.id }));
  // A handler that looks its parameter up in a plain object, as the actuator's metric lookup did.
  app.get('/registry/:name', (req, res) => {
    const entry = registry[req.params.name as string];
    if (!entry) return res.status(404).json({});
    res.json({ value: entry.get() });
  });
  app.get('/search', (req, res) => res.json({ q: req.query.q }));
  app.post('/echo', (req, res) => {
    seen.push(req.body);
    res.json({ echoed: JSON.stringify(req.body).length });
  });
  finalizeApp(app);
  return { app, seen };
}

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('request-target guard', () => {
  const { app } = buildApp();

  it.each(['/items/%ff', '/items/%2', '/items/%E0%A4%A', '/items/a%zz'])(
    'answers %s with a 400 MALFORMED_PATH problem',
    async (path) => {
      const res = await request(app).get(path);
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ code: 'MALFORMED_PATH', status: 400 });
    },
  );

  it.each(['__proto__', 'constructor', 'prototype', '%5F%5Fproto%5F%5F'])(
    'refuses the prototype key %s as a path segment',
    async (name) => {
      const res = await request(app).get(`/registry/${name}`);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('FORBIDDEN_PATH_SEGMENT');
    },
  );

  it('refuses control characters in the path and the query, and keeps ordinary encoded text', async () => {
    expect((await request(app).get('/items/a%00b')).status).toBe(400);
    expect((await request(app).get('/search?q=a%00b')).body.code).toBe('MALFORMED_QUERY');
    expect((await request(app).get('/search?q=%ff')).body.code).toBe('MALFORMED_QUERY');
    expect((await request(app).get('/items/caf%C3%A9%20au%20lait')).body).toEqual({ id: 'café au lait' });
    expect((await request(app).get('/search?q=a+b%2Cc')).body).toEqual({ q: 'a b,c' });
    expect((await request(app).get('/registry/up')).body).toEqual({ value: 'up' });
  });
});

describe('JSON front door', () => {
  it('refuses a body nested deeper than the limit before parsing, and accepts one at the limit', async () => {
    const { app, seen } = buildApp();
    for (const body of [nested(10_000), '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000), nested(9)]) {
      const res = await request(app).post('/echo').set('Content-Type', 'application/json').send(body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('JSON_TOO_DEEP');
    }
    expect(seen).toHaveLength(0);
    expect(
      (await request(app).post('/echo').set('Content-Type', 'application/json').send(nested(8))).status,
    ).toBe(200);
  });

  it.each([
    ['{"__proto__":{"admin":true}}', 'FORBIDDEN_KEY'],
    ['{"a":[{"constructor":{"prototype":1}}]}', 'FORBIDDEN_KEY'],
    ['{"\\u005f_proto__":1}', 'FORBIDDEN_KEY'],
    ['{"name":"a\\u0000b"}', 'INVALID_JSON_STRING'],
    ['{"connection_id":"\\udfff"}', 'INVALID_JSON_STRING'],
    ['{"x":"\\ud800"}', 'INVALID_JSON_STRING'],
    ['{"x":"\\ud800\\u0041"}', 'INVALID_JSON_STRING'],
  ])('refuses %s with %s', async (body, code) => {
    const { app, seen } = buildApp();
    const res = await request(app).post('/echo').set('Content-Type', 'application/json').send(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(code);
    expect(seen).toHaveLength(0);
  });

  it('lets keys and strings that only look alike through', async () => {
    const { app } = buildApp();
    for (const body of [
      '{"proto":"__proto__"}',
      '{"constructors":1,"x":"\\ud83d\\ude00","y":"tab\\tnew\\nline"}',
      '["__proto__"]',
      '{"a\\"b":"constructor"}',
    ]) {
      expect(
        (await request(app).post('/echo').set('Content-Type', 'application/json').send(body)).status,
      ).toBe(200);
    }
  });

  it('agrees with a recursive reference on arbitrary JSON values', () => {
    const depthOf = (v: unknown): number =>
      v !== null && typeof v === 'object' ? 1 + Math.max(0, ...Object.values(v as object).map(depthOf)) : 0;
    const badKey = (v: unknown): boolean =>
      v !== null &&
      typeof v === 'object' &&
      Object.entries(v as object).some(([k, x]) => (!Array.isArray(v) && PROTOTYPE_KEYS.has(k)) || badKey(x));
    const badString = (v: unknown): boolean =>
      typeof v === 'string'
        ? v.includes('\u0000') || hasLoneSurrogate(v)
        : v !== null &&
          typeof v === 'object' &&
          Object.entries(v as object).some(
            ([k, x]) => k.includes('\u0000') || hasLoneSurrogate(k) || badString(x),
          );
    const key = fc.oneof(
      fc.string(),
      fc.constantFrom('__proto__', 'constructor', 'prototype', 'a\u0000', '\udfff'),
    );
    const leaf = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.constantFrom('\ud800', 'x\u0000'),
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', maxDepth: 12 },
        leaf,
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(key, tie('node'), { maxKeys: 3 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        const text = JSON.stringify(v);
        const expectedOk = depthOf(v) <= 6 && !badKey(v) && !badString(v);
        let ok = true;
        try {
          checkJsonBody(Buffer.from(text, 'utf8'), 6);
        } catch {
          ok = false;
        }
        expect(ok).toBe(expectedOk);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('text predicates', () => {
  it('finds control characters other than tab, CR and LF, and unpaired surrogates', () => {
    expect(hasControlCharacters('a\u0000b')).toBe(true);
    expect(hasControlCharacters('a\u001bb')).toBe(true);
    expect(hasControlCharacters('line\n\ttab\r')).toBe(false);
    expect(hasLoneSurrogate('\udfff')).toBe(true);
    expect(hasLoneSurrogate('\ud83d\ude00')).toBe(false);
  });
});
