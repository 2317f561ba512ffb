import { buildOpenApi, checkDocumentedResponse, TaxonomyTree, Type } from '../src';

const Item = Type.Object({ id: Type.String(), n: Type.Integer() }, { additionalProperties: false });

function doc() {
  return buildOpenApi({
    title: 't',
    version: '1',
    security: ['bearer'],
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    routes: [
      {
        method: 'get',
        path: '/tree',
        summary: 'tree',
        responses: { '200': { description: 'ok', schema: TaxonomyTree } },
      },
      {
        method: 'get',
        path: '/items/:id',
        summary: 'item',
        params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
        headers: Type.Object({ 'X-T': Type.Optional(Type.String()) }),
        responses: { '200': { description: 'ok', schema: Item } },
        security: [],
      },
    ],
  }) as any;
}

describe('buildOpenApi', () => {
  it('hoists $id schemas into components and points references there', () => {
    const d = doc();
    const text = JSON.stringify(d);
    expect(text).not.toContain('"$id"');
    expect(text).not.toContain('"$ref":"CategoryNode"');
    expect(d.components.schemas.CategoryNode.properties.subcategories).toBeDefined();
    expect(d.components.schemas.Problem).toBeDefined();
  });

  it('gives operation ids, a 4XX and a default problem response, path, header and security data', () => {
    const op = doc().paths['/items/{id}'].get;
    expect(op.operationId).toBe('getItemsId');
    expect(Object.keys(op.responses)).toEqual(['200', '4XX', 'default']);
    expect(op.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { format: 'uuid', type: 'string' } },
      { name: 'X-T', in: 'header', required: false, schema: { type: 'string' } },
    ]);
    expect(op.security).toEqual([]);
    expect(doc().security).toEqual([{ bearer: [] }]);
  });

  it('refuses an operation documented twice', () => {
    const r = { method: 'get' as const, path: '/x', summary: 'x', responses: {} };
    expect(() => buildOpenApi({ title: 't', version: '1', routes: [r, r] })).toThrow(/twice|Duplicate/);
  });
});

describe('checkDocumentedResponse', () => {
  it('validates against the documented schema, following references, and reports mismatches', () => {
    const d = doc();
    expect(
      checkDocumentedResponse(d, 'get', '/tree', 200, {
        total: 1,
        domains: { wellness: { count: 1, categories: { sleep: { count: 1, subcategories: {} } } } },
      }),
    ).toEqual([]);
    expect(
      checkDocumentedResponse(d, 'get', '/tree', 200, {
        total: 1,
        domains: { wellness: { count: 1, categories: { sleep: { count: 'one', subcategories: {} } } } },
      }),
    ).not.toEqual([]);
    expect(checkDocumentedResponse(d, 'get', '/items/:id', 200, { id: 'a', n: 1, extra: true })).not.toEqual(
      [],
    );
  });

  it('falls back to the status class, then default, and needs the documented media type', () => {
    const d = doc();
    const problem = { type: 'about:blank', title: 'Not found', status: 404, code: 'NOT_FOUND' };
    expect(checkDocumentedResponse(d, 'get', '/items/:id', 404, problem, 'application/problem+json')).toEqual(
      [],
    );
    expect(checkDocumentedResponse(d, 'get', '/items/:id', 503, problem, 'application/problem+json')).toEqual(
      [],
    );
    expect(
      checkDocumentedResponse(d, 'get', '/items/:id', 404, { title: 'x' }, 'application/problem+json'),
    ).not.toEqual([]);
    expect(() => checkDocumentedResponse(d, 'get', '/items/:id', 200, {}, 'text/html')).toThrow(
      /no text\/html schema/,
    );
    expect(() => checkDocumentedResponse(d, 'get', '/nowhere', 200, {})).toThrow();
  });
});
