// /cast-rules over HTTP: CRUD, batch, authorisation, validation, and POST /cast-rules/resolve.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API, dataTypesOf, type Row, seedReference } from '../../helpers/catalogue.js';
import { createFlavor, ok, unique, UNKNOWN_ID } from '../../helpers/factories.js';
import {
  ADMIN,
  createTestContext,
  expectEnvelope,
  type TestContext,
  type TestResponse,
} from '../../helpers/test-app.js';

let ctx: TestContext;
let pg: Map<string, Row>;
let iceberg: Map<string, Row>;

beforeAll(async () => {
  ctx = await createTestContext();
  await seedReference(ctx);
  pg = await dataTypesOf(ctx, 'postgres14');
  iceberg = await dataTypesOf(ctx, 'iceberg_v2');
});
afterAll(async () => {
  await ctx.close();
});

const base = `${API}/cast-rules`;

function id(map: Map<string, Row>, code: string): string {
  const row = map.get(code);
  if (!row) throw new Error(`no data type ${code}`);
  return row.id;
}

async function dataType(flavorId: string, overrides: Record<string, unknown> = {}): Promise<Row> {
  return ok(
    await ctx.request('POST', `${API}/data-types`, {
      token: ctx.adminToken,
      body: {
        system_flavor_id: flavorId,
        code: unique('dt'),
        params_schema: {},
        render_template: 'plain',
        ...overrides,
      },
    }),
    201,
  );
}

/** Two fresh data types in two fresh flavors, free of any rule. */
async function pair(
  sourceOverrides: Record<string, unknown> = {},
  targetOverrides: Record<string, unknown> = {},
) {
  const from = await createFlavor(ctx);
  const to = await createFlavor(ctx);
  return {
    from,
    to,
    source: await dataType(from.id, sourceOverrides),
    target: await dataType(to.id, targetOverrides),
  };
}

function resolve(body: Record<string, unknown>, token = ctx.userToken): Promise<TestResponse> {
  return ctx.request('POST', `${base}/resolve`, { token, body });
}

describe('cast rules: CRUD', () => {
  it('creates (superuser, 201), reads, lists by source and safety', async () => {
    const { source, target } = await pair();
    const created = ok(
      await ctx.request('POST', base, {
        token: ctx.adminToken,
        body: { source_data_type_id: source.id, target_data_type_id: target.id, safety: 'safe' },
      }),
      201,
    );
    expect(created).toMatchObject({
      source_data_type_id: source.id,
      target_data_type_id: target.id,
      param_mapping: {},
      safety: 'safe',
      row_version: 1,
      created_by: ADMIN.id,
    });
    expect(ok(await ctx.request('GET', `${base}/${created.id}`, { token: ctx.userToken }))).toEqual(created);
    const list = ok(
      await ctx.request('GET', `${base}?source_data_type_id=${source.id}&safety=safe`, {
        token: ctx.userToken,
      }),
    );
    expect(list).toMatchObject({ total: 1, items: [{ id: created.id }] });
    expect(
      ok(
        await ctx.request('GET', `${base}?source_data_type_id=${source.id}&safety=unsafe`, {
          token: ctx.userToken,
        }),
      ).total,
    ).toBe(0);
  });

  it('lists the seeded rules', async () => {
    const list = ok(
      await ctx.request(
        'GET',
        `${base}?source_data_type_id=${id(pg, 'numeric')}&target_data_type_id=${id(iceberg, 'decimal')}`,
        { token: ctx.userToken },
      ),
    );
    expect(list.items).toEqual([
      expect.objectContaining({
        safety: 'safe',
        param_mapping: { precision: '@precision', scale: '@scale' },
        fidelity: 'exact',
        loss: [],
      }),
    ]);
    // The cast matrix: one rule into each other seeded flavor, the lossy ones saying what they lose.
    const all = ok(
      await ctx.request('GET', `${base}?source_data_type_id=${id(pg, 'numeric')}&fidelity=lossy`, {
        token: ctx.userToken,
      }),
    );
    expect(all.items.length).toBeGreaterThan(0);
    for (const rule of all.items)
      expect(rule).toMatchObject({ safety: 'unsafe', loss: expect.arrayContaining([expect.any(String)]) });
  });

  it('refuses anonymous calls (401) and regular users on writes (403)', async () => {
    const { source, target } = await pair();
    const body = { source_data_type_id: source.id, target_data_type_id: target.id, safety: 'safe' };
    const rule = ok(await ctx.request('POST', base, { token: ctx.adminToken, body }), 201);
    expectEnvelope(await ctx.request('GET', base), 401, 'UNAUTHORIZED');
    expectEnvelope(await ctx.request('GET', `${base}/${rule.id}`), 401, 'UNAUTHORIZED');
    expectEnvelope(
      await ctx.request('POST', `${base}/resolve`, { body: { data_type_id: source.id, target_flavor: 'x' } }),
      401,
      'UNAUTHORIZED',
    );
    const other = await pair();
    const otherBody = {
      source_data_type_id: other.source.id,
      target_data_type_id: other.target.id,
      safety: 'safe',
    };
    expectEnvelope(
      await ctx.request('POST', base, { token: ctx.userToken, body: otherBody }),
      403,
      'FORBIDDEN',
    );
    expectEnvelope(
      await ctx.request('POST', `${base}/batch`, { token: ctx.userToken, body: { items: [otherBody] } }),
      403,
      'FORBIDDEN',
    );
    expectEnvelope(
      await ctx.request('PUT', `${base}/${rule.id}`, {
        token: ctx.userToken,
        body: { safety: 'unsafe', row_version: 1 },
      }),
      403,
      'FORBIDDEN',
    );
    expectEnvelope(
      await ctx.request('PATCH', `${base}/${rule.id}`, {
        token: ctx.userToken,
        body: { safety: 'unsafe', row_version: 1 },
      }),
      403,
      'FORBIDDEN',
    );
    expectEnvelope(
      await ctx.request('DELETE', `${base}/${rule.id}`, { token: ctx.userToken }),
      403,
      'FORBIDDEN',
    );
    expect(ok(await ctx.request('GET', `${base}/${rule.id}`, { token: ctx.userToken }))).toEqual(rule);
    expect(
      ok(await ctx.request('GET', `${base}?source_data_type_id=${other.source.id}`, { token: ctx.userToken }))
        .total,
    ).toBe(0);
  });

  it('answers 404 for unknown ids and data types', async () => {
    const { source } = await pair();
    expectEnvelope(
      await ctx.request('GET', `${base}/${UNKNOWN_ID}`, { token: ctx.userToken }),
      404,
      'CAST_RULE_NOT_FOUND',
    );
    expectEnvelope(
      await ctx.request('PUT', `${base}/${UNKNOWN_ID}`, {
        token: ctx.adminToken,
        body: { safety: 'safe', row_version: 1 },
      }),
      404,
      'CAST_RULE_NOT_FOUND',
    );
    expectEnvelope(
      await ctx.request('DELETE', `${base}/${UNKNOWN_ID}`, { token: ctx.adminToken }),
      404,
      'CAST_RULE_NOT_FOUND',
    );
    expectEnvelope(
      await ctx.request('POST', base, {
        token: ctx.adminToken,
        body: { source_data_type_id: source.id, target_data_type_id: UNKNOWN_ID, safety: 'safe' },
      }),
      404,
      'DATA_TYPE_NOT_FOUND',
    );
  });

  it('refuses a duplicate (source, target) with 409', async () => {
    const { source, target } = await pair();
    const body = { source_data_type_id: source.id, target_data_type_id: target.id, safety: 'safe' };
    ok(await ctx.request('POST', base, { token: ctx.adminToken, body }), 201);
    expectEnvelope(
      await ctx.request('POST', base, { token: ctx.adminToken, body: { ...body, safety: 'unsafe' } }),
      409,
      'CAST_RULE_ALREADY_EXISTS',
    );
  });

  it('updates with row_version, refuses a stale one (409) and a missing one (428), deletes (superuser)', async () => {
    const { source, target } = await pair();
    const rule = ok(
      await ctx.request('POST', base, {
        token: ctx.adminToken,
        body: { source_data_type_id: source.id, target_data_type_id: target.id, safety: 'safe' },
      }),
      201,
    );
    const updated = ok(
      await ctx.request('PUT', `${base}/${rule.id}`, {
        token: ctx.adminToken,
        body: { safety: 'unsafe', row_version: 1 },
      }),
    );
    expect(updated).toMatchObject({ safety: 'unsafe', row_version: 2 });
    expectEnvelope(
      await ctx.request('PATCH', `${base}/${rule.id}`, {
        token: ctx.adminToken,
        body: { safety: 'implicit', row_version: 1 },
      }),
      409,
      'VERSION_CONFLICT',
    );
    expectEnvelope(
      await ctx.request('PATCH', `${base}/${rule.id}`, {
        token: ctx.adminToken,
        body: { safety: 'implicit' },
      }),
      428,
      'PRECONDITION_REQUIRED',
    );
    expect(ok(await ctx.request('DELETE', `${base}/${rule.id}`, { token: ctx.adminToken })).id).toBe(rule.id);
    expectEnvelope(
      await ctx.request('GET', `${base}/${rule.id}`, { token: ctx.userToken }),
      404,
      'CAST_RULE_NOT_FOUND',
    );
  });

  it('checks param_mapping against both data types (422)', async () => {
    const { source, target } = await pair(
      {
        params_schema: { n: { type: 'int' } },
        render_template: 's{% if n is defined %}({{ n }}){% endif %}',
      },
      {
        params_schema: { m: { type: 'int' } },
        render_template: 't{% if m is defined %}({{ m }}){% endif %}',
      },
    );
    const body = { source_data_type_id: source.id, target_data_type_id: target.id, safety: 'safe' };
    const unknownSource = expectEnvelope(
      await ctx.request('POST', base, {
        token: ctx.adminToken,
        body: { ...body, param_mapping: { m: '@nope' } },
      }),
      422,
      'VALIDATION_ERROR',
    );
    expect(JSON.stringify(unknownSource.details)).toContain('param_mapping');
    expectEnvelope(
      await ctx.request('POST', base, {
        token: ctx.adminToken,
        body: { ...body, param_mapping: { ghost: '@n' } },
      }),
      422,
      'VALIDATION_ERROR',
    );
    const rule = ok(
      await ctx.request('POST', base, {
        token: ctx.adminToken,
        body: { ...body, param_mapping: { m: '@n' } },
      }),
      201,
    );
    expect(rule.param_mapping).toEqual({ m: '@n' });
    expectEnvelope(
      await ctx.request('PATCH', `${base}/${rule.id}`, {
        token: ctx.adminToken,
        body: { param_mapping: { x: 1 }, row_version: 1 },
      }),
      422,
      'VALIDATION_ERROR',
    );
  });

  it('creates a batch all-or-nothing', async () => {
    const a = await pair();
    const b = await pair();
    const items = [
      { source_data_type_id: a.source.id, target_data_type_id: a.target.id, safety: 'implicit' },
      { source_data_type_id: b.source.id, target_data_type_id: b.target.id, safety: 'unsafe' },
    ];
    const batch = ok(
      await ctx.request('POST', `${base}/batch`, { token: ctx.adminToken, body: { items } }),
      201,
    );
    expect(batch.count).toBe(2);
    expect(batch.items.map((r: Row) => r.safety)).toEqual(['implicit', 'unsafe']);

    const c = await pair();
    const fresh = { source_data_type_id: c.source.id, target_data_type_id: c.target.id, safety: 'safe' };
    expectEnvelope(
      await ctx.request('POST', `${base}/batch`, { token: ctx.adminToken, body: { items: [fresh, fresh] } }),
      409,
      'CAST_RULE_ALREADY_EXISTS',
    );
    expectEnvelope(
      await ctx.request('POST', `${base}/batch`, {
        token: ctx.adminToken,
        body: { items: [fresh, items[0]] },
      }),
      409,
      'CAST_RULE_ALREADY_EXISTS',
    );
    expectEnvelope(
      await ctx.request('POST', `${base}/batch`, {
        token: ctx.adminToken,
        body: { items: [fresh, { ...items[0], target_data_type_id: UNKNOWN_ID }] },
      }),
      404,
      'DATA_TYPE_NOT_FOUND',
    );
    expect(
      ok(await ctx.request('GET', `${base}?source_data_type_id=${c.source.id}`, { token: ctx.userToken }))
        .total,
    ).toBe(0);
  });

  it('validates bodies, paths and query strings (422)', async () => {
    const { source, target } = await pair();
    const v = (r: TestResponse) => expectEnvelope(r, 422, 'VALIDATION_ERROR');
    const body = { source_data_type_id: source.id, target_data_type_id: target.id, safety: 'safe' };
    v(await ctx.request('POST', base, { token: ctx.adminToken, body: { ...body, colour: 'red' } }));
    v(await ctx.request('POST', base, { token: ctx.adminToken, body: { ...body, safety: 'risky' } }));
    v(await ctx.request('POST', base, { token: ctx.adminToken, body: { ...body, param_mapping: [] } }));
    v(
      await ctx.request('POST', base, { token: ctx.adminToken, body: { ...body, source_data_type_id: 'x' } }),
    );
    v(await ctx.request('GET', `${base}/x`, { token: ctx.userToken }));
    v(await ctx.request('GET', `${base}?colour=red`, { token: ctx.userToken }));
    v(await ctx.request('GET', `${base}?safety=risky`, { token: ctx.userToken }));
    v(await ctx.request('GET', `${base}?sort=param_mapping`, { token: ctx.userToken }));
    v(await ctx.request('GET', `${base}?size=101`, { token: ctx.userToken }));
    expect(
      ok(await ctx.request('GET', `${base}?source_data_type_id=${source.id}`, { token: ctx.userToken }))
        .total,
    ).toBe(0);
  });
});

describe('cast rules: resolve', () => {
  it('postgres14 numeric(12,2) → iceberg_v2 decimal(12,2), from params and from a type instance', async () => {
    const expected = {
      source_data_type_id: id(pg, 'numeric'),
      source_code: 'numeric',
      target_data_type_id: id(iceberg, 'decimal'),
      target_code: 'decimal',
      target_flavor: 'iceberg_v2',
      type_params: { precision: 12, scale: 2 },
      rendered: 'decimal(12,2)',
      safety: 'safe',
    };
    const byParams = ok(
      await resolve({
        data_type_id: id(pg, 'numeric'),
        type_params: { precision: 12, scale: 2 },
        target_flavor: 'iceberg_v2',
      }),
    );
    expect(byParams).toMatchObject(expected);
    const rule = ok(await ctx.request('GET', `${base}/${byParams.cast_rule_id}`, { token: ctx.userToken }));
    expect(rule).toMatchObject({
      source_data_type_id: id(pg, 'numeric'),
      target_data_type_id: id(iceberg, 'decimal'),
    });

    const instance = ok(
      await ctx.request('POST', `${API}/type-instances`, {
        token: ctx.userToken,
        body: { data_type_id: id(pg, 'numeric'), type_params: { precision: 12, scale: 2 } },
      }),
      201,
    );
    expect(ok(await resolve({ type_instance_id: instance.id, target_flavor: 'iceberg_v2' }))).toMatchObject(
      expected,
    );
  });

  it('postgres14 array of varchar → iceberg_v2 list<string>', async () => {
    const array = ok(
      await ctx.request('POST', `${API}/type-instances`, {
        token: ctx.userToken,
        body: { data_type_id: id(pg, 'array') },
      }),
      201,
    );
    ok(
      await ctx.request('POST', `${API}/type-instances`, {
        token: ctx.userToken,
        body: {
          data_type_id: id(pg, 'varchar'),
          type_params: { length: 10 },
          parent_id: array.id,
          slot: 'item',
        },
      }),
      201,
    );
    const result = ok(await resolve({ type_instance_id: array.id, target_flavor: 'iceberg_v2' }));
    expect(result).toMatchObject({
      source_code: 'array',
      target_code: 'list',
      target_flavor: 'iceberg_v2',
      rendered: 'list<string>',
      safety: 'safe',
    });
  });

  it('reports the weakest safety of the tree: an array of json is unsafe', async () => {
    const array = ok(
      await ctx.request('POST', `${API}/type-instances`, {
        token: ctx.userToken,
        body: { data_type_id: id(pg, 'array') },
      }),
      201,
    );
    ok(
      await ctx.request('POST', `${API}/type-instances`, {
        token: ctx.userToken,
        body: { data_type_id: id(pg, 'json'), parent_id: array.id, slot: 'item' },
      }),
      201,
    );
    expect(ok(await resolve({ type_instance_id: array.id, target_flavor: 'iceberg_v2' }))).toMatchObject({
      rendered: 'list<string>',
      safety: 'unsafe',
    });
  });

  it('applies literal mappings: money → decimal(19,2)', async () => {
    expect(ok(await resolve({ data_type_id: id(pg, 'money'), target_flavor: 'iceberg_v2' }))).toMatchObject({
      target_code: 'decimal',
      type_params: { precision: 19, scale: 2 },
      rendered: 'decimal(19,2)',
    });
  });

  it('answers 422 CAST_RULE_NOT_RESOLVABLE for a type without a rule (a new flavor)', async () => {
    const flavor = await createFlavor(ctx);
    const lonely = await dataType(flavor.id);
    const err = expectEnvelope(
      await resolve({ data_type_id: lonely.id, target_flavor: 'iceberg_v2' }),
      422,
      'CAST_RULE_NOT_RESOLVABLE',
    );
    expect(err.details).toEqual({ source_code: lonely.code });
    // A seeded type the cast matrix maps nowhere (postgres14 pg_ndistinct): the reason comes back; and
    // a child without a mapping.
    const gap = expectEnvelope(
      await resolve({ data_type_id: id(pg, 'pg_ndistinct'), target_flavor: 'iceberg_v2' }),
      422,
      'CAST_RULE_NOT_RESOLVABLE',
    );
    expect(gap.details).toEqual({
      source_code: 'pg_ndistinct',
      no_mapping: 'planner statistics (n-distinct), not data',
    });
    expect(gap.detail).toBe(
      "No mapping from 'pg_ndistinct' to the target flavor: planner statistics (n-distinct), not data.",
    );
    const array = ok(
      await ctx.request('POST', `${API}/type-instances`, {
        token: ctx.userToken,
        body: { data_type_id: id(pg, 'array') },
      }),
      201,
    );
    ok(
      await ctx.request('POST', `${API}/type-instances`, {
        token: ctx.userToken,
        body: { data_type_id: id(pg, 'pg_ndistinct'), parent_id: array.id, slot: 'item' },
      }),
      201,
    );
    const child = expectEnvelope(
      await resolve({ type_instance_id: array.id, target_flavor: 'iceberg_v2' }),
      422,
      'CAST_RULE_NOT_RESOLVABLE',
    );
    expect(child.details).toMatchObject({ source_code: 'pg_ndistinct', no_mapping: expect.any(String) });
  });

  it('answers 422 CAST_RULE_AMBIGUOUS with the candidates when two rules lead to the target flavor', async () => {
    const from = await createFlavor(ctx);
    const to = await createFlavor(ctx);
    const source = await dataType(from.id, { code: unique('src') });
    const t1 = await dataType(to.id, { code: unique('a_target') });
    const t2 = await dataType(to.id, { code: unique('b_target') });
    ok(
      await ctx.request('POST', `${base}/batch`, {
        token: ctx.adminToken,
        body: {
          items: [
            { source_data_type_id: source.id, target_data_type_id: t1.id, safety: 'safe' },
            { source_data_type_id: source.id, target_data_type_id: t2.id, safety: 'unsafe' },
          ],
        },
      }),
      201,
    );
    const err = expectEnvelope(
      await resolve({ data_type_id: source.id, target_flavor: to.code }),
      422,
      'CAST_RULE_AMBIGUOUS',
    );
    expect(err.details.candidates).toEqual([t1.code, t2.code]);
    // A deleted target no longer counts: the cast resolves again.
    ok(await ctx.request('DELETE', `${API}/data-types/${t2.id}`, { token: ctx.adminToken }));
    expect(ok(await resolve({ data_type_id: source.id, target_flavor: to.code }))).toMatchObject({
      target_code: t1.code,
      rendered: 'plain',
    });
  });

  it('answers 422 TYPE_INSTANCE_PARAMS_INVALID when the mapped params do not fit (numeric without scale → decimal)', async () => {
    const err = expectEnvelope(
      await resolve({
        data_type_id: id(pg, 'numeric'),
        type_params: { precision: 12 },
        target_flavor: 'iceberg_v2',
      }),
      422,
      'TYPE_INSTANCE_PARAMS_INVALID',
    );
    expect(err.details.issues.map((i: { path: string[] }) => i.path.join('.'))).toContain('scale');
    const bad = expectEnvelope(
      await resolve({
        data_type_id: id(pg, 'numeric'),
        type_params: { precision: 'x' },
        target_flavor: 'iceberg_v2',
      }),
      422,
      'TYPE_INSTANCE_PARAMS_INVALID',
    );
    expect(bad.details.issues.map((i: { path: string[] }) => i.path.join('.'))).toContain('precision');
  });

  it('validates the request: unknown flavor (404), unknown ids (404), exactly one source (422)', async () => {
    expectEnvelope(
      await resolve({ data_type_id: id(pg, 'text'), target_flavor: 'nope' }),
      404,
      'SYSTEM_FLAVOR_NOT_FOUND',
    );
    expectEnvelope(
      await resolve({ data_type_id: UNKNOWN_ID, target_flavor: 'iceberg_v2' }),
      404,
      'DATA_TYPE_NOT_FOUND',
    );
    expectEnvelope(
      await resolve({ type_instance_id: UNKNOWN_ID, target_flavor: 'iceberg_v2' }),
      404,
      'TYPE_INSTANCE_NOT_FOUND',
    );
    const v = (r: TestResponse) => expectEnvelope(r, 422, 'VALIDATION_ERROR');
    v(await resolve({ target_flavor: 'iceberg_v2' }));
    v(
      await resolve({
        data_type_id: id(pg, 'text'),
        type_instance_id: UNKNOWN_ID,
        target_flavor: 'iceberg_v2',
      }),
    );
    v(await resolve({ data_type_id: id(pg, 'text') }));
    v(await resolve({ data_type_id: id(pg, 'text'), target_flavor: 'iceberg_v2', colour: 'red' }));
    v(await resolve({ data_type_id: 'x', target_flavor: 'iceberg_v2' }));
    // resolve is a read: a regular user may call it, and it writes no rule.
    const before = ok(await ctx.request('GET', `${base}?size=1`, { token: ctx.userToken })).total;
    ok(await resolve({ data_type_id: id(pg, 'text'), target_flavor: 'iceberg_v2' }));
    expect(ok(await ctx.request('GET', `${base}?size=1`, { token: ctx.userToken })).total).toBe(before);
  });
});

describe('cast rules: the seeded cast matrix', () => {
  const instance = async (code: string, flavor: Map<string, Row>, extra: Record<string, unknown> = {}) =>
    ok(
      await ctx.request('POST', `${API}/type-instances`, {
        token: ctx.userToken,
        body: { data_type_id: id(flavor, code), ...extra },
      }),
      201,
    );

  it('postgres14 varchar(50) → mysql8 varchar(50), exact', async () => {
    expect(
      ok(
        await resolve({
          data_type_id: id(pg, 'varchar'),
          type_params: { length: 50 },
          target_flavor: 'mysql8',
        }),
      ),
    ).toMatchObject({
      target_code: 'varchar',
      rendered: 'varchar(50)',
      fidelity: 'exact',
      loss: [],
      safety: 'implicit',
    });
  });

  it('mysql8 bigint unsigned → postgres14 numeric(20,0), widening', async () => {
    const mysql = await dataTypesOf(ctx, 'mysql8');
    expect(
      ok(await resolve({ data_type_id: id(mysql, 'bigint_unsigned'), target_flavor: 'postgres14' })),
    ).toMatchObject({
      target_code: 'numeric',
      rendered: 'numeric(20,0)',
      fidelity: 'widening',
      safety: 'safe',
    });
  });

  it('postgres14 timestamptz(6) → mysql8 timestamp(6), lossy with what is lost', async () => {
    expect(
      ok(
        await resolve({
          data_type_id: id(pg, 'timestamptz'),
          type_params: { precision: 6 },
          target_flavor: 'mysql8',
        }),
      ),
    ).toMatchObject({
      rendered: 'timestamp(6)',
      fidelity: 'lossy',
      loss: ['precision above 0 when unset'],
      safety: 'unsafe',
    });
  });

  it('postgres14 array of timestamptz → mysql8 json (the children live in the document)', async () => {
    const array = await instance('array', pg);
    await instance('timestamptz', pg, { parent_id: array.id, slot: 'item' });
    expect(ok(await resolve({ type_instance_id: array.id, target_flavor: 'mysql8' }))).toMatchObject({
      target_code: 'json',
      rendered: 'json',
      fidelity: 'widening',
      safety: 'safe',
    });
  });

  it('iceberg_v2 list<timestamptz> → sqlite3 json; postgres14 array<timestamptz> → iceberg list<timestamptz>', async () => {
    const array = await instance('array', pg);
    await instance('timestamptz', pg, { parent_id: array.id, slot: 'item' });
    expect(ok(await resolve({ type_instance_id: array.id, target_flavor: 'iceberg_v2' }))).toMatchObject({
      rendered: 'list<timestamptz>',
      fidelity: 'widening',
    });
    expect(ok(await resolve({ data_type_id: id(iceberg, 'list'), target_flavor: 'sqlite3' }))).toMatchObject({
      rendered: 'json',
    });
  });
});
