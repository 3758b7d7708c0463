// /data-types over HTTP: CRUD, soft delete/restore, batch, authorisation, validation, params_schema
// (JSON Schema or the original rule format) and the render_template sandbox.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API, dataTypeOf, listAll, type Row, seedReference } from '../../helpers/catalogue.js';
import { createFlavor, ok, unique, UNKNOWN_ID } from '../../helpers/factories.js';
import { ADMIN, createTestContext, expectEnvelope, type TestContext } from '../../helpers/test-app.js';

let ctx: TestContext;
let flavor: Row;

beforeAll(async () => {
  ctx = await createTestContext();
  await seedReference(ctx);
  flavor = await createFlavor(ctx);
});
afterAll(async () => {
  await ctx.close();
});

const base = `${API}/data-types`;

function typeBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    system_flavor_id: flavor.id,
    code: unique('dt'),
    params_schema: {},
    render_template: 'plain',
    description: 'a test type',
    ...overrides,
  };
}

async function createType(overrides: Record<string, unknown> = {}): Promise<Row> {
  return ok(await ctx.request('POST', base, { token: ctx.adminToken, body: typeBody(overrides) }), 201);
}

describe('data types: CRUD', () => {
  it('creates (201, read shape), gets and lists by flavor', async () => {
    const body = typeBody({ code: unique('varchar') });
    const created = ok(await ctx.request('POST', base, { token: ctx.adminToken, body }), 201);
    expect(created).toMatchObject({
      system_flavor_id: flavor.id,
      code: body.code,
      render_template: 'plain',
      description: 'a test type',
      row_version: 1,
      deleted_at: null,
      created_by: ADMIN.id,
    });
    expect(created.params_schema).toMatchObject({ type: 'object', properties: {} });
    expect(ok(await ctx.request('GET', `${base}/${created.id}`, { token: ctx.userToken }))).toEqual(created);
    const list = ok(
      await ctx.request('GET', `${base}?system_flavor_id=${flavor.id}&code=${String(body.code)}`, {
        token: ctx.userToken,
      }),
    );
    expect(list).toMatchObject({ total: 1, items: [{ id: created.id }] });
  });

  it('lists the seeded catalogue of a flavor, sorted by code', async () => {
    const pg = await dataTypeOf(ctx, 'postgres14', 'numeric');
    const page = ok(
      await ctx.request('GET', `${base}?system_flavor_id=${pg.system_flavor_id}&sort=-code&size=5`, {
        token: ctx.userToken,
      }),
    );
    // The original's 52 postgres14 types and the 37 the crawler added.
    expect(page.total).toBe(89);
    expect(page.pages).toBe(18);
    const codes = page.items.map((i: Row) => i.code);
    expect(codes).toEqual([...codes].sort().reverse());
  });

  it('refuses anonymous calls (401)', async () => {
    const existing = await createType();
    expectEnvelope(await ctx.request('GET', base), 401, 'UNAUTHORIZED');
    expectEnvelope(await ctx.request('GET', `${base}/${existing.id}`), 401, 'UNAUTHORIZED');
    expectEnvelope(await ctx.request('POST', base, { body: typeBody() }), 401, 'UNAUTHORIZED');
    expectEnvelope(
      await ctx.request('POST', `${base}/batch`, { body: { items: [typeBody()] } }),
      401,
      'UNAUTHORIZED',
    );
    expectEnvelope(await ctx.request('POST', `${base}/${existing.id}/restore`), 401, 'UNAUTHORIZED');
  });

  it('lets only superusers write, delete and restore (403 for a regular user)', async () => {
    const existing = await createType();
    const body = typeBody();
    expectEnvelope(await ctx.request('POST', base, { token: ctx.userToken, body }), 403, 'FORBIDDEN');
    expectEnvelope(
      await ctx.request('POST', `${base}/batch`, { token: ctx.userToken, body: { items: [typeBody()] } }),
      403,
      'FORBIDDEN',
    );
    expectEnvelope(
      await ctx.request('PUT', `${base}/${existing.id}`, {
        token: ctx.userToken,
        body: { description: 'x', row_version: 1 },
      }),
      403,
      'FORBIDDEN',
    );
    expectEnvelope(
      await ctx.request('PATCH', `${base}/${existing.id}`, {
        token: ctx.userToken,
        body: { description: 'x', row_version: 1 },
      }),
      403,
      'FORBIDDEN',
    );
    expectEnvelope(
      await ctx.request('DELETE', `${base}/${existing.id}`, { token: ctx.userToken }),
      403,
      'FORBIDDEN',
    );
    expectEnvelope(
      await ctx.request('POST', `${base}/${existing.id}/restore`, { token: ctx.userToken }),
      403,
      'FORBIDDEN',
    );
    // Nothing was written.
    expect(
      ok(await ctx.request('GET', `${base}?code=${String(body.code)}`, { token: ctx.userToken })).total,
    ).toBe(0);
    expect(ok(await ctx.request('GET', `${base}/${existing.id}`, { token: ctx.userToken }))).toEqual(
      existing,
    );
  });

  it('answers 404 for an unknown id and an unknown flavor', async () => {
    expectEnvelope(
      await ctx.request('GET', `${base}/${UNKNOWN_ID}`, { token: ctx.userToken }),
      404,
      'DATA_TYPE_NOT_FOUND',
    );
    expectEnvelope(
      await ctx.request('PUT', `${base}/${UNKNOWN_ID}`, {
        token: ctx.adminToken,
        body: { description: 'x', row_version: 1 },
      }),
      404,
      'DATA_TYPE_NOT_FOUND',
    );
    expectEnvelope(
      await ctx.request('DELETE', `${base}/${UNKNOWN_ID}`, { token: ctx.adminToken }),
      404,
      'DATA_TYPE_NOT_FOUND',
    );
    expectEnvelope(
      await ctx.request('POST', base, {
        token: ctx.adminToken,
        body: typeBody({ system_flavor_id: UNKNOWN_ID }),
      }),
      404,
      'SYSTEM_FLAVOR_NOT_FOUND',
    );
  });

  it('refuses a duplicate (flavor, code) with 409; the same code in another flavor is fine', async () => {
    const first = await createType();
    expectEnvelope(
      await ctx.request('POST', base, { token: ctx.adminToken, body: typeBody({ code: first.code }) }),
      409,
      'DATA_TYPE_ALREADY_EXISTS',
    );
    const other = await createFlavor(ctx);
    const elsewhere = await createType({ code: first.code, system_flavor_id: other.id });
    expect(elsewhere.code).toBe(first.code);
  });

  it('updates with row_version (PUT and PATCH), refuses a stale one (409) and a missing one (428)', async () => {
    const row = await createType();
    const put = ok(
      await ctx.request('PUT', `${base}/${row.id}`, {
        token: ctx.adminToken,
        body: { description: 'v2', row_version: 1 },
      }),
    );
    expect(put).toMatchObject({ description: 'v2', row_version: 2, code: row.code });
    const patch = ok(
      await ctx.request('PATCH', `${base}/${row.id}`, {
        token: ctx.adminToken,
        body: { description: 'v3' },
        headers: { 'if-match': '"2"' },
      }),
    );
    expect(patch).toMatchObject({ description: 'v3', row_version: 3 });
    const stale = expectEnvelope(
      await ctx.request('PUT', `${base}/${row.id}`, {
        token: ctx.adminToken,
        body: { description: 'lost', row_version: 1 },
      }),
      409,
      'VERSION_CONFLICT',
    );
    expect(stale.details).toMatchObject({ current_row_version: 3 });
    expectEnvelope(
      await ctx.request('PUT', `${base}/${row.id}`, {
        token: ctx.adminToken,
        body: { description: 'no version' },
      }),
      428,
      'PRECONDITION_REQUIRED',
    );
    expect(ok(await ctx.request('GET', `${base}/${row.id}`, { token: ctx.userToken })).description).toBe(
      'v3',
    );
  });

  it('soft-deletes and restores (superuser), include_deleted for superusers only', async () => {
    const row = await createType();
    const deleted = ok(await ctx.request('DELETE', `${base}/${row.id}`, { token: ctx.adminToken }));
    expect(deleted).toMatchObject({ id: row.id, deleted_at: expect.any(String) });
    expectEnvelope(
      await ctx.request('GET', `${base}/${row.id}`, { token: ctx.userToken }),
      404,
      'DATA_TYPE_NOT_FOUND',
    );
    expect(ok(await ctx.request('GET', `${base}?code=${row.code}`, { token: ctx.adminToken })).total).toBe(0);
    expect(
      ok(await ctx.request('GET', `${base}?code=${row.code}&include_deleted=true`, { token: ctx.adminToken }))
        .total,
    ).toBe(1);
    expectEnvelope(
      await ctx.request('GET', `${base}?code=${row.code}&include_deleted=true`, { token: ctx.userToken }),
      403,
      'FORBIDDEN',
    );
    expectEnvelope(
      await ctx.request('DELETE', `${base}/${row.id}`, { token: ctx.adminToken }),
      404,
      'DATA_TYPE_NOT_FOUND',
    );
    // The code is free again while the row is deleted.
    const replacement = await createType({ code: row.code });
    // ...so restoring the old row would duplicate an active code.
    expectEnvelope(
      await ctx.request('POST', `${base}/${row.id}/restore`, { token: ctx.adminToken }),
      409,
      'DATA_TYPE_ALREADY_EXISTS',
    );
    ok(await ctx.request('DELETE', `${base}/${replacement.id}`, { token: ctx.adminToken }));

    const restored = ok(await ctx.request('POST', `${base}/${row.id}/restore`, { token: ctx.adminToken }));
    expect(restored).toMatchObject({ id: row.id, deleted_at: null, row_version: 2 });
    expect(ok(await ctx.request('GET', `${base}/${row.id}`, { token: ctx.userToken })).id).toBe(row.id);
    expectEnvelope(
      await ctx.request('POST', `${base}/${row.id}/restore`, { token: ctx.adminToken }),
      400,
      'ENTITY_NOT_DELETED',
    );
    expectEnvelope(
      await ctx.request('POST', `${base}/${UNKNOWN_ID}/restore`, { token: ctx.adminToken }),
      404,
      'DATA_TYPE_NOT_FOUND',
    );
  });

  it('creates a batch all-or-nothing', async () => {
    const a = typeBody();
    const b = typeBody({
      params_schema: { length: { type: 'int', required: false, min: 1 } },
      render_template: 'b{% if length is defined %}({{ length }}){% endif %}',
    });
    const batch = ok(
      await ctx.request('POST', `${base}/batch`, { token: ctx.adminToken, body: { items: [a, b] } }),
      201,
    );
    expect(batch.count).toBe(2);
    expect(batch.items.map((i: Row) => i.code)).toEqual([a.code, b.code]);
    expect(batch.items[1].params_schema).toMatchObject({
      type: 'object',
      properties: { length: { type: 'integer', minimum: 1 } },
    });

    // A duplicate inside the batch, a bad template, or a clash with a stored row: nothing is written.
    const c = typeBody();
    expectEnvelope(
      await ctx.request('POST', `${base}/batch`, { token: ctx.adminToken, body: { items: [c, { ...c }] } }),
      409,
      'DATA_TYPE_ALREADY_EXISTS',
    );
    expectEnvelope(
      await ctx.request('POST', `${base}/batch`, {
        token: ctx.adminToken,
        body: { items: [c, typeBody({ render_template: '{{ self }}' })] },
      }),
      422,
      'DATA_TYPE_TEMPLATE_INVALID',
    );
    expectEnvelope(
      await ctx.request('POST', `${base}/batch`, {
        token: ctx.adminToken,
        body: { items: [c, typeBody({ code: a.code })] },
      }),
      409,
      'DATA_TYPE_ALREADY_EXISTS',
    );
    expect(
      ok(await ctx.request('GET', `${base}?code=${String(c.code)}`, { token: ctx.userToken })).total,
    ).toBe(0);
    expectEnvelope(
      await ctx.request('POST', `${base}/batch`, { token: ctx.adminToken, body: { items: [] } }),
      422,
      'VALIDATION_ERROR',
    );
  });

  it('validates bodies, paths and query strings (422)', async () => {
    const row = await createType();
    const v = (r: Awaited<ReturnType<TestContext['request']>>) => expectEnvelope(r, 422, 'VALIDATION_ERROR');
    const unknownKey = v(
      await ctx.request('POST', base, { token: ctx.adminToken, body: typeBody({ color: 'red' }) }),
    );
    expect(JSON.stringify(unknownKey.details)).toContain('color');
    v(await ctx.request('POST', base, { token: ctx.adminToken, body: typeBody({ code: 42 }) }));
    v(
      await ctx.request('POST', base, {
        token: ctx.adminToken,
        body: typeBody({ params_schema: 'integer' }),
      }),
    );
    v(
      await ctx.request('POST', base, {
        token: ctx.adminToken,
        body: typeBody({ system_flavor_id: 'not-a-uuid' }),
      }),
    );
    v(
      await ctx.request('POST', base, {
        token: ctx.adminToken,
        body: typeBody({ render_template: 'x'.repeat(2001) }),
      }),
    );
    v(
      await ctx.request('PUT', `${base}/${row.id}`, {
        token: ctx.adminToken,
        body: { row_version: 1, id: row.id },
      }),
    );
    v(await ctx.request('GET', `${base}/not-a-uuid`, { token: ctx.userToken }));
    v(await ctx.request('GET', `${base}?colour=red`, { token: ctx.userToken }));
    v(await ctx.request('GET', `${base}?sort=description`, { token: ctx.userToken }));
    v(await ctx.request('GET', `${base}?size=101`, { token: ctx.userToken }));
    v(await ctx.request('GET', `${base}?system_flavor_id=nope`, { token: ctx.userToken }));
    v(await ctx.request('GET', `${base}/${row.id}?x=1`, { token: ctx.userToken }));
  });
});

describe('data types: params_schema', () => {
  it('stores a JSON Schema as given', async () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { precision: { type: 'integer', minimum: 1, maximum: 38 }, unit: { enum: ['s', 'ms'] } },
      required: ['precision'],
      additionalProperties: false,
    };
    const row = await createType({ params_schema: schema, render_template: 't({{ precision }})' });
    expect(row.params_schema).toEqual(schema);
  });

  it('accepts the original rule format and stores it as JSON Schema', async () => {
    const row = await createType({
      params_schema: { length: { type: 'int', required: false, min: 1 } },
      render_template: 'v{% if length is defined %}({{ length }}){% endif %}',
    });
    expect(row.params_schema).toEqual({
      type: 'object',
      properties: { length: { type: 'integer', minimum: 1 } },
      additionalProperties: false,
    });
    const stored = ok(await ctx.request('GET', `${base}/${row.id}`, { token: ctx.userToken }));
    expect(stored.params_schema).toEqual(row.params_schema);

    const required = await createType({
      params_schema: { n: { type: 'int', required: true, min: 0, max: 9 }, s: { type: 'str', default: 'x' } },
    });
    expect(required.params_schema).toEqual({
      type: 'object',
      properties: { n: { type: 'integer', minimum: 0, maximum: 9 }, s: { type: 'string', default: 'x' } },
      required: ['n'],
      additionalProperties: false,
    });
  });

  it.each([
    ['an unknown property type', { type: 'object', properties: { a: { type: 'integr' } } }],
    ['a non-object root', { type: 'array' }],
    ['a bound of the wrong type', { type: 'object', properties: { a: { type: 'integer', minimum: 'one' } } }],
    [
      'minimum above maximum',
      { type: 'object', properties: { a: { type: 'integer', minimum: 5, maximum: 1 } } },
    ],
    ['required naming nothing', { type: 'object', properties: {}, required: ['ghost'] }],
    [
      'a default outside the bounds',
      { type: 'object', properties: { a: { type: 'integer', maximum: 3, default: 9 } } },
    ],
    ['a regex pattern', { type: 'object', properties: { a: { type: 'string', pattern: '(a+)+$' } } }],
    ['a $ref', { type: 'object', properties: { a: { $ref: '#/x' } } }],
    ['an unknown rule type', { length: { type: 'long' } }],
    ['an unknown rule key', { length: { type: 'int', minimum: 1 } }],
  ])(
    'refuses %s with 422 DATA_TYPE_PARAMS_SCHEMA_INVALID, writing nothing',
    async (_label, params_schema) => {
      const body = typeBody({ params_schema, render_template: null });
      const r = await ctx.request('POST', base, { token: ctx.adminToken, body });
      const envelope = expectEnvelope(r, 422, 'DATA_TYPE_PARAMS_SCHEMA_INVALID');
      expect(Array.isArray(envelope.details?.issues)).toBe(true);
      expect(envelope.details.issues.length).toBeGreaterThan(0);
      expect(
        ok(await ctx.request('GET', `${base}?code=${String(body.code)}`, { token: ctx.userToken })).total,
      ).toBe(0);
    },
  );

  it('refuses an invalid params_schema on update and keeps the stored one', async () => {
    const row = await createType({ params_schema: { n: { type: 'int' } }, render_template: 'x{{ n }}' });
    expectEnvelope(
      await ctx.request('PUT', `${base}/${row.id}`, {
        token: ctx.adminToken,
        body: { params_schema: { type: 'object', properties: { n: { type: 'nope' } } }, row_version: 1 },
      }),
      422,
      'DATA_TYPE_PARAMS_SCHEMA_INVALID',
    );
    // A schema that drops a param the stored template reads is refused too.
    expectEnvelope(
      await ctx.request('PUT', `${base}/${row.id}`, {
        token: ctx.adminToken,
        body: { params_schema: {}, row_version: 1 },
      }),
      422,
      'DATA_TYPE_TEMPLATE_INVALID',
    );
    expect(ok(await ctx.request('GET', `${base}/${row.id}`, { token: ctx.userToken }))).toEqual(row);
  });
});

describe('data types: render_template sandbox', () => {
  const deepIfs = `${'{% if true %}'.repeat(60)}x${'{% endif %}'.repeat(60)}`;
  const PAYLOADS: [string, string][] = [
    ['python class walk', "{{ ''.__class__ }}"],
    ['python mro walk', "{{ ''.__class__.__mro__[1].__subclasses__() }}"],
    ['constructor walk to process', "{{ x.constructor.constructor('return process')() }}"],
    ['constructor of a param', '{{ length.constructor }}'],
    ['prototype of params', '{{ params.__proto__ }}'],
    ['cycler global', '{{ cycler }}'],
    ['joiner call', '{{ joiner() }}'],
    ['huge range loop', '{% for i in range(10**9) %}x{% endfor %}'],
    ['deep nested ifs', deepIfs],
    ['string multiplication', "{{ 'a' * 100000000 }}"],
    ['macro definition', '{% macro m() %}x{% endmacro %}{{ m() }}'],
    ['include of a file', "{% include '/etc/passwd' %}"],
    ['extends', "{% extends 'base.html' %}"],
    ['self reference', '{{ self }}'],
    ['set statement', '{% set x = 1 %}{{ x }}'],
    ['namespace global', '{{ namespace() }}'],
    ['process global', '{{ process.env }}'],
    ['toString method', '{{ length.toString() }}'],
    ['unknown variable', '{{ lenght }}'],
    ['unclosed block', '{% if length is defined %}x'],
    ['lipsum', '{{ lipsum(1000000) }}'],
    ['list literal growth', '{{ [1,2,3] }}'],
  ];

  it('has at least ten payloads', () => {
    expect(PAYLOADS.length).toBeGreaterThanOrEqual(10);
  });

  it.each(PAYLOADS)(
    // The validator refuses these without running them; template-injection.spec.ts asserts that no
    // render step is spent (wall time is the bench's to measure, not a test's).
    'refuses %s with 422 DATA_TYPE_TEMPLATE_INVALID, writing nothing',
    async (_label, template) => {
      const before = await listAll(ctx, 'data-types', `system_flavor_id=${flavor.id}`);
      const body = typeBody({
        params_schema: { length: { type: 'int', required: false } },
        render_template: template,
      });
      const r = await ctx.request('POST', base, { token: ctx.adminToken, body });
      expectEnvelope(r, 422, 'DATA_TYPE_TEMPLATE_INVALID');
      // Through the batch route as well.
      const batch = await ctx.request('POST', `${base}/batch`, {
        token: ctx.adminToken,
        body: { items: [typeBody(), body] },
      });
      expectEnvelope(batch, 422, 'DATA_TYPE_TEMPLATE_INVALID');
      const after = await listAll(ctx, 'data-types', `system_flavor_id=${flavor.id}`);
      expect(after).toEqual(before);
    },
  );

  it('refuses a payload on update and keeps the stored template', async () => {
    const row = await createType({
      params_schema: { length: { type: 'int' } },
      render_template: 'v{% if length is defined %}({{ length }}){% endif %}',
    });
    for (const [, template] of PAYLOADS.slice(0, 10)) {
      const r = await ctx.request('PATCH', `${base}/${row.id}`, {
        token: ctx.adminToken,
        body: { render_template: template, row_version: 1 },
      });
      expectEnvelope(r, 422, 'DATA_TYPE_TEMPLATE_INVALID');
    }
    expect(ok(await ctx.request('GET', `${base}/${row.id}`, { token: ctx.userToken }))).toEqual(row);
  });

  it('accepts conditional templates and converts the original {param} style', async () => {
    const conditional = await createType({
      params_schema: { length: { type: 'int' } },
      render_template: "v{% if length is defined %}({{ length }}){% endif %}{{ ' x' | upper }}",
    });
    expect(conditional.render_template).toContain('{% if length is defined %}');
    const original = await createType({
      params_schema: { p: { type: 'int', required: true }, s: { type: 'int', required: true } },
      render_template: 'dec({p},{s})',
    });
    expect(original.render_template).not.toBe('dec({p},{s})');
    expect(original.render_template).toContain('{{');
  });
});
