import fc from 'fast-check';
import {
  buildOpenApi,
  ChatRequest,
  check,
  compile,
  DocumentIngest,
  LoginRequest,
  Problem,
  RelayTicketPayload,
  TaxonomyTree,
} from '../src';

describe('shared validators', () => {
  it('compiles each schema once and reuses the validator', () => {
    expect(compile(LoginRequest)).toBe(compile(LoginRequest));
  });

  it('rejects unknown fields with a pointer to the field', () => {
    const r = check(LoginRequest, { email: 'a@b.c', password: 'x', admin: true });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues).toContainEqual({ pointer: '/admin', detail: 'is not an allowed field' });
  });

  it('names a missing required field', () => {
    const r = check(ChatRequest, {});
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues.map((i) => i.pointer)).toContain('/messages');
  });

  it('rejects an empty message list and an unknown role', () => {
    expect(check(ChatRequest, { messages: [] }).ok).toBe(false);
    expect(check(ChatRequest, { messages: [{ role: 'tool', content: 'x' }] }).ok).toBe(false);
    expect(check(ChatRequest, { messages: [{ role: 'user', content: 'hi' }], allow_clinical: true }).ok).toBe(
      true,
    );
  });

  it('accepts the taxonomy tree shape of the spec, nested subcategories included', () => {
    const tree = {
      total: 2,
      domains: {
        clinical: {
          count: 2,
          categories: { triage: { count: 2, subcategories: { adult: { count: 1, subcategories: {} } } } },
        },
      },
    };
    expect(check(TaxonomyTree, tree).ok).toBe(true);
    expect(check(TaxonomyTree, { total: 1, domains: { x: { count: 'one', categories: {} } } }).ok).toBe(
      false,
    );
  });

  it('requires a 32-hex-character nonce in a relay payload', () => {
    const base = { v: 1, uid: 'u', pid: 'p', cid: 'c', cb: 'http://127.0.0.1/cb', iat: 1, exp: 2 };
    expect(check(RelayTicketPayload, { ...base, nonce: 'a'.repeat(32) }).ok).toBe(true);
    expect(check(RelayTicketPayload, { ...base, nonce: 'A'.repeat(32) }).ok).toBe(false);
    expect(check(RelayTicketPayload, { ...base, v: 2, nonce: 'a'.repeat(32) }).ok).toBe(false);
  });

  it('never throws on arbitrary JSON input and always explains a rejection', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        for (const schema of [LoginRequest, ChatRequest, DocumentIngest]) {
          const r = check(schema, value);
          if (!r.ok) expect(r.issues.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('OpenAPI assembly', () => {
  it('turns express paths into templated paths with parameters and a problem default response', () => {
    const doc = buildOpenApi({
      title: 't',
      version: '1',
      routes: [
        {
          method: 'post',
          path: '/api/v1/auth/login',
          summary: 'login',
          body: LoginRequest,
          responses: { '200': { description: 'ok' } },
        },
        {
          method: 'get',
          path: '/api/agents/:agentId',
          summary: 'agent',
          responses: { '200': { description: 'ok' } },
        },
      ],
    }) as any;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/api/agents/{agentId}'].get.parameters[0]).toMatchObject({
      name: 'agentId',
      in: 'path',
    });
    expect(
      doc.paths['/api/v1/auth/login'].post.requestBody.content['application/json'].schema.required,
    ).toEqual(['email', 'password']);
    expect(doc.components.schemas.Problem.required).toEqual(
      expect.arrayContaining(['type', 'title', 'status', 'code']),
    );
    expect(check(Problem, { type: 'about:blank', title: 'x', status: 400, code: 'BAD' }).ok).toBe(true);
  });
});
