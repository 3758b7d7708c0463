// /type-instances over HTTP: CRUD, batch, trees, rendering (every seeded type, with and without its
// optional params), params validated against the data type's JSON Schema.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API, dataTypeOf, dataTypesOf, type Row, seedReference } from '../../helpers/catalogue.js';
import { createFlavor, ok, unique, UNKNOWN_ID } from '../../helpers/factories.js';
import {
  createTestContext,
  expectEnvelope,
  type TestContext,
  type TestResponse,
  USER,
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

const base = `${API}/type-instances`;

function typeId(map: Map<string, Row>, code: string): string {
  const row = map.get(code);
  if (!row) throw new Error(`no data type ${code}`);
  return row.id;
}

function createInstance(body: Record<string, unknown>, token = ctx.userToken): Promise<TestResponse> {
  return ctx.request('POST', base, { token, body });
}

async function instance(body: Record<string, unknown>): Promise<Row> {
  return ok(await createInstance(body), 201);
}

async function rendered(id: string): Promise<string> {
  const body = ok(await ctx.request('GET', `${base}/${id}/render`, { token: ctx.userToken }));
  expect(body.type_instance_id).toBe(id);
  return body.rendered;
}

/** Issues' paths as dotted strings. */
function issuePaths(envelope: { details?: { issues?: { path: (string | number)[] }[] } }): string[] {
  return (envelope.details?.issues ?? []).map((i) => i.path.join('.'));
}

describe('type instances: CRUD', () => {
  it('creates (201) a regular user may, reads, lists, filters by data type and parent', async () => {
    const created = await instance({
      data_type_id: typeId(pg, 'numeric'),
      type_params: { precision: 12, scale: 2 },
    });
    expect(created).toMatchObject({
      data_type_id: typeId(pg, 'numeric'),
      type_params: { precision: 12, scale: 2 },
      parent_id: null,
      slot: null,
      row_version: 1,
      created_by: USER.id,
    });
    expect(ok(await ctx.request('GET', `${base}/${created.id}`, { token: ctx.userToken }))).toEqual(created);
    const list = ok(
      await ctx.request('GET', `${base}?data_type_id=${typeId(pg, 'numeric')}`, { token: ctx.userToken }),
    );
    expect(list.items.map((i: Row) => i.id)).toContain(created.id);

    const array = await instance({ data_type_id: typeId(pg, 'array') });
    const item = await instance({ data_type_id: typeId(pg, 'integer'), parent_id: array.id, slot: 'item' });
    const children = ok(await ctx.request('GET', `${base}?parent_id=${array.id}`, { token: ctx.userToken }));
    expect(children).toMatchObject({ total: 1, items: [{ id: item.id, slot: 'item', parent_id: array.id }] });
  });

  it('refuses anonymous calls (401)', async () => {
    const row = await instance({ data_type_id: typeId(pg, 'text') });
    for (const [method, path] of [
      ['GET', base],
      ['GET', `${base}/${row.id}`],
      ['GET', `${base}/${row.id}/tree`],
      ['GET', `${base}/${row.id}/render`],
      ['POST', base],
      ['POST', `${base}/batch`],
      ['PUT', `${base}/${row.id}`],
      ['DELETE', `${base}/${row.id}`],
    ] as const) {
      expectEnvelope(
        await ctx.request(method, path, { body: method === 'GET' || method === 'DELETE' ? undefined : {} }),
        401,
        'UNAUTHORIZED',
      );
    }
  });

  it('answers 404 for unknown ids, data types and parents', async () => {
    for (const path of [
      `${base}/${UNKNOWN_ID}`,
      `${base}/${UNKNOWN_ID}/tree`,
      `${base}/${UNKNOWN_ID}/render`,
    ]) {
      expectEnvelope(
        await ctx.request('GET', path, { token: ctx.userToken }),
        404,
        'TYPE_INSTANCE_NOT_FOUND',
      );
    }
    expectEnvelope(await createInstance({ data_type_id: UNKNOWN_ID }), 404, 'DATA_TYPE_NOT_FOUND');
    expectEnvelope(
      await createInstance({ data_type_id: typeId(pg, 'integer'), parent_id: UNKNOWN_ID, slot: 'item' }),
      404,
      'TYPE_INSTANCE_PARENT_NOT_FOUND',
    );
    expectEnvelope(
      await ctx.request('PUT', `${base}/${UNKNOWN_ID}`, {
        token: ctx.userToken,
        body: { type_params: null, row_version: 1 },
      }),
      404,
      'TYPE_INSTANCE_NOT_FOUND',
    );
    expectEnvelope(
      await ctx.request('DELETE', `${base}/${UNKNOWN_ID}`, { token: ctx.adminToken }),
      404,
      'TYPE_INSTANCE_NOT_FOUND',
    );
  });

  it('checks slots: required under a parent (400), forbidden on a root (400), unique per parent (409), well-formed (422)', async () => {
    const array = await instance({ data_type_id: typeId(pg, 'array') });
    expectEnvelope(
      await createInstance({ data_type_id: typeId(pg, 'integer'), parent_id: array.id }),
      400,
      'TYPE_INSTANCE_SLOT_REQUIRED',
    );
    expectEnvelope(
      await createInstance({ data_type_id: typeId(pg, 'integer'), slot: 'item' }),
      400,
      'TYPE_INSTANCE_SLOT_FORBIDDEN',
    );
    await instance({ data_type_id: typeId(pg, 'integer'), parent_id: array.id, slot: 'item' });
    expectEnvelope(
      await createInstance({ data_type_id: typeId(pg, 'text'), parent_id: array.id, slot: 'item' }),
      409,
      'TYPE_INSTANCE_SLOT_ALREADY_EXISTS',
    );
    expectEnvelope(
      await createInstance({ data_type_id: typeId(pg, 'text'), parent_id: array.id, slot: 'items' }),
      422,
      'VALIDATION_ERROR',
    );
  });

  it('updates params with row_version; stale (409), missing (428); parent and slot are fixed (422)', async () => {
    const row = await instance({ data_type_id: typeId(pg, 'varchar'), type_params: { length: 10 } });
    const updated = ok(
      await ctx.request('PUT', `${base}/${row.id}`, {
        token: ctx.userToken,
        body: { type_params: { length: 20 }, row_version: 1 },
      }),
    );
    expect(updated).toMatchObject({ type_params: { length: 20 }, row_version: 2 });
    expect(await rendered(row.id)).toBe('varchar(20)');
    expectEnvelope(
      await ctx.request('PATCH', `${base}/${row.id}`, {
        token: ctx.userToken,
        body: { type_params: { length: 30 }, row_version: 1 },
      }),
      409,
      'VERSION_CONFLICT',
    );
    expectEnvelope(
      await ctx.request('PATCH', `${base}/${row.id}`, {
        token: ctx.userToken,
        body: { type_params: { length: 30 } },
      }),
      428,
      'PRECONDITION_REQUIRED',
    );
    expectEnvelope(
      await ctx.request('PATCH', `${base}/${row.id}`, {
        token: ctx.userToken,
        body: { slot: 'item', row_version: 2 },
      }),
      422,
      'VALIDATION_ERROR',
    );
    // Changing the data type re-validates the stored params against the new one.
    const err = expectEnvelope(
      await ctx.request('PATCH', `${base}/${row.id}`, {
        token: ctx.userToken,
        body: { data_type_id: typeId(pg, 'integer'), row_version: 2 },
      }),
      422,
      'TYPE_INSTANCE_PARAMS_INVALID',
    );
    expect(issuePaths(err)).toContain('length');
    expect(ok(await ctx.request('GET', `${base}/${row.id}`, { token: ctx.userToken }))).toEqual(updated);
  });

  it('deletes (superuser only) with its subtree', async () => {
    const array = await instance({ data_type_id: typeId(pg, 'array') });
    const item = await instance({ data_type_id: typeId(pg, 'integer'), parent_id: array.id, slot: 'item' });
    expectEnvelope(
      await ctx.request('DELETE', `${base}/${array.id}`, { token: ctx.userToken }),
      403,
      'FORBIDDEN',
    );
    expect(ok(await ctx.request('DELETE', `${base}/${array.id}`, { token: ctx.adminToken })).id).toBe(
      array.id,
    );
    expectEnvelope(
      await ctx.request('GET', `${base}/${item.id}`, { token: ctx.userToken }),
      404,
      'TYPE_INSTANCE_NOT_FOUND',
    );
    // Type instances are not soft-deleted: there is no restore route.
    expectEnvelope(
      await ctx.request('POST', `${base}/${array.id}/restore`, { token: ctx.adminToken }),
      404,
      'NOT_FOUND',
    );
  });

  it('creates a batch all-or-nothing', async () => {
    const array = await instance({ data_type_id: typeId(pg, 'array') });
    const batch = ok(
      await ctx.request('POST', `${base}/batch`, {
        token: ctx.userToken,
        body: {
          items: [
            {
              data_type_id: typeId(pg, 'varchar'),
              type_params: { length: 5 },
              parent_id: array.id,
              slot: 'item',
            },
            { data_type_id: typeId(pg, 'numeric'), type_params: { precision: 5 } },
          ],
        },
      }),
      201,
    );
    expect(batch.count).toBe(2);
    expect(await rendered(array.id)).toBe('varchar(5)[]');
    expect(await rendered(batch.items[1].id)).toBe('numeric(5)');

    const fresh = await instance({ data_type_id: typeId(pg, 'array') });
    const before = ok(
      await ctx.request('GET', `${base}?data_type_id=${typeId(pg, 'bit')}`, { token: ctx.userToken }),
    ).total;
    const bad = await ctx.request('POST', `${base}/batch`, {
      token: ctx.userToken,
      body: {
        items: [
          { data_type_id: typeId(pg, 'bit'), type_params: { length: 3 } },
          { data_type_id: typeId(pg, 'bit'), type_params: { length: 0 } },
        ],
      },
    });
    const err = expectEnvelope(bad, 422, 'TYPE_INSTANCE_PARAMS_INVALID');
    expect(issuePaths(err)).toContain('length');
    expect(
      ok(await ctx.request('GET', `${base}?data_type_id=${typeId(pg, 'bit')}`, { token: ctx.userToken }))
        .total,
    ).toBe(before);
    const clash = await ctx.request('POST', `${base}/batch`, {
      token: ctx.userToken,
      body: {
        items: [
          { data_type_id: typeId(pg, 'bit'), type_params: { length: 3 } },
          { data_type_id: typeId(pg, 'integer'), parent_id: fresh.id, slot: 'item' },
          { data_type_id: typeId(pg, 'text'), parent_id: fresh.id, slot: 'item' },
        ],
      },
    });
    expectEnvelope(clash, 409, 'TYPE_INSTANCE_SLOT_ALREADY_EXISTS');
    expect(
      ok(await ctx.request('GET', `${base}?data_type_id=${typeId(pg, 'bit')}`, { token: ctx.userToken }))
        .total,
    ).toBe(before);
  });

  it('validates bodies, paths and query strings (422)', async () => {
    const row = await instance({ data_type_id: typeId(pg, 'text') });
    const v = (r: TestResponse) => expectEnvelope(r, 422, 'VALIDATION_ERROR');
    v(await createInstance({ data_type_id: typeId(pg, 'text'), colour: 'red' }));
    v(await createInstance({ data_type_id: typeId(pg, 'text'), type_params: 'x' }));
    v(await createInstance({ data_type_id: 'nope' }));
    v(await ctx.request('GET', `${base}/nope`, { token: ctx.userToken }));
    v(await ctx.request('GET', `${base}/nope/render`, { token: ctx.userToken }));
    v(await ctx.request('GET', `${base}/${row.id}/tree?depth=3`, { token: ctx.userToken }));
    v(await ctx.request('GET', `${base}/${row.id}/render?x=1`, { token: ctx.userToken }));
    v(await ctx.request('GET', `${base}?colour=red`, { token: ctx.userToken }));
    v(await ctx.request('GET', `${base}?sort=type_params`, { token: ctx.userToken }));
    v(await ctx.request('GET', `${base}?size=101`, { token: ctx.userToken }));
    v(await ctx.request('GET', `${base}?size=0`, { token: ctx.userToken }));
  });
});

describe('type instances: params against the JSON Schema', () => {
  it.each([
    ['a wrong type', 'numeric', { precision: 'twelve' }, 'precision'],
    ['an out-of-range value', 'numeric', { precision: 0 }, 'precision'],
    ['an out-of-range value (above)', 'varchar', { length: 10485761 }, 'length'],
    ['a non-integer', 'timestamp', { precision: 2.5 }, 'precision'],
    ['an unknown key', 'varchar', { size: 10 }, 'size'],
    ['an unknown key on a type without params', 'integer', { length: 4 }, 'length'],
  ])('refuses %s (postgres14) with 422 naming the param', async (_label, code, type_params, param) => {
    const err = expectEnvelope(
      await createInstance({ data_type_id: typeId(pg, code), type_params }),
      422,
      'TYPE_INSTANCE_PARAMS_INVALID',
    );
    expect(issuePaths(err)).toContain(param);
  });

  it('refuses a missing required param (iceberg decimal needs scale)', async () => {
    const err = expectEnvelope(
      await createInstance({ data_type_id: typeId(iceberg, 'decimal'), type_params: { precision: 10 } }),
      422,
      'TYPE_INSTANCE_PARAMS_INVALID',
    );
    expect(issuePaths(err)).toEqual(['scale']);
    const none = expectEnvelope(
      await createInstance({ data_type_id: typeId(iceberg, 'decimal') }),
      422,
      'TYPE_INSTANCE_PARAMS_INVALID',
    );
    expect(issuePaths(none).sort()).toEqual(['precision', 'scale']);
  });

  it('checks a user-written JSON Schema (enum, strings, booleans, defaults)', async () => {
    const flavor = await createFlavor(ctx);
    const dt = ok(
      await ctx.request('POST', `${API}/data-types`, {
        token: ctx.adminToken,
        body: {
          system_flavor_id: flavor.id,
          code: unique('ts'),
          params_schema: {
            type: 'object',
            properties: {
              unit: { enum: ['s', 'ms', 'us'] },
              zone: { type: 'string', minLength: 2, maxLength: 5 },
              utc: { type: 'boolean', default: true },
            },
            required: ['unit'],
            additionalProperties: false,
          },
          render_template:
            'ts[{{ unit }}]{% if zone is defined %} {{ zone }}{% endif %}{% if utc %} utc{% endif %}',
        },
      }),
      201,
    );
    const good = await instance({ data_type_id: dt.id, type_params: { unit: 'ms', zone: 'CET' } });
    expect(good.type_params).toEqual({ unit: 'ms', zone: 'CET', utc: true });
    expect(await rendered(good.id)).toBe('ts[ms] CET utc');
    for (const [params, path] of [
      [{ unit: 'h' }, 'unit'],
      [{ unit: 's', zone: 'X' }, 'zone'],
      [{ unit: 's', utc: 'yes' }, 'utc'],
      [{ zone: 'CET' }, 'unit'],
      [{ unit: 's', extra: 1 }, 'extra'],
    ] as const) {
      const err = expectEnvelope(
        await createInstance({ data_type_id: dt.id, type_params: params }),
        422,
        'TYPE_INSTANCE_PARAMS_INVALID',
      );
      expect(issuePaths(err)).toContain(path);
    }
  });

  it('treats null params as absent', async () => {
    const row = await instance({ data_type_id: typeId(pg, 'varchar'), type_params: { length: null } });
    expect(row.type_params).toBeNull();
    expect(await rendered(row.id)).toBe('varchar');
  });
});

describe('type instances: trees and rendering', () => {
  it('renders numeric(12,2), varchar(10)[], varchar and a tree', async () => {
    const numeric = await instance({
      data_type_id: typeId(pg, 'numeric'),
      type_params: { precision: 12, scale: 2 },
    });
    expect(await rendered(numeric.id)).toBe('numeric(12,2)');
    const varchar = await instance({ data_type_id: typeId(pg, 'varchar') });
    expect(await rendered(varchar.id)).toBe('varchar');
    const array = await instance({ data_type_id: typeId(pg, 'array') });
    const item = await instance({
      data_type_id: typeId(pg, 'varchar'),
      type_params: { length: 10 },
      parent_id: array.id,
      slot: 'item',
    });
    expect(await rendered(array.id)).toBe('varchar(10)[]');
    expect(await rendered(item.id)).toBe('varchar(10)');
    const tree = ok(await ctx.request('GET', `${base}/${array.id}/tree`, { token: ctx.userToken }));
    expect(tree).toEqual({
      id: array.id,
      data_type_id: typeId(pg, 'array'),
      data_type_code: 'array',
      type_params: null,
      slot: null,
      children: [
        {
          id: item.id,
          data_type_id: typeId(pg, 'varchar'),
          data_type_code: 'varchar',
          type_params: { length: 10 },
          slot: 'item',
          children: [],
        },
      ],
    });
  });

  it('renders nested iceberg containers: map<string,list<decimal(10,2)>> and struct<a:int,b:string>', async () => {
    const map = await instance({ data_type_id: typeId(iceberg, 'map') });
    await instance({ data_type_id: typeId(iceberg, 'string'), parent_id: map.id, slot: 'key' });
    const list = await instance({ data_type_id: typeId(iceberg, 'list'), parent_id: map.id, slot: 'value' });
    await instance({
      data_type_id: typeId(iceberg, 'decimal'),
      type_params: { precision: 10, scale: 2 },
      parent_id: list.id,
      slot: 'element',
    });
    expect(await rendered(map.id)).toBe('map<string,list<decimal(10,2)>>');
    const tree = ok(await ctx.request('GET', `${base}/${map.id}/tree`, { token: ctx.userToken }));
    expect(tree.children.map((c: Row) => c.slot).sort()).toEqual(['key', 'value']);
    expect(tree.children.find((c: Row) => c.slot === 'value').children[0].data_type_code).toBe('decimal');

    const struct = await instance({ data_type_id: typeId(iceberg, 'struct') });
    await instance({ data_type_id: typeId(iceberg, 'int'), parent_id: struct.id, slot: 'field:a' });
    await instance({ data_type_id: typeId(iceberg, 'string'), parent_id: struct.id, slot: 'field:b' });
    expect(await rendered(struct.id)).toBe('struct<a:int,b:string>');
  });

  it('answers 422 TYPE_INSTANCE_RENDER_FAILED for an array whose element type is missing', async () => {
    // The array template reads `item`: a tree without it is not a type, and must not render as `[]`.
    const bare = await instance({ data_type_id: typeId(pg, 'array') });
    expectEnvelope(
      await ctx.request('GET', `${base}/${bare.id}/render`, { token: ctx.userToken }),
      422,
      'TYPE_INSTANCE_RENDER_FAILED',
    );
    const misplaced = await instance({ data_type_id: typeId(pg, 'array') });
    await instance({ data_type_id: typeId(pg, 'integer'), parent_id: misplaced.id, slot: 'field:x' });
    expectEnvelope(
      await ctx.request('GET', `${base}/${misplaced.id}/render`, { token: ctx.userToken }),
      422,
      'TYPE_INSTANCE_RENDER_FAILED',
    );
  });

  it('refuses nested loops when the template is written, and bounds the rendered size', async () => {
    const flavor = await createFlavor(ctx);
    const nested = '{% for a in fields %}{% for b in fields %}x{% endfor %}{% endfor %}';
    expectEnvelope(
      await ctx.request('POST', `${API}/data-types`, {
        token: ctx.adminToken,
        body: {
          system_flavor_id: flavor.id,
          code: unique('bomb'),
          params_schema: {},
          render_template: nested,
        },
      }),
      422,
      'DATA_TYPE_TEMPLATE_INVALID',
    );
    const repeat = `{% for f in fields %}${'{{ f.name }}'.repeat(20)}{% endfor %}`;
    const dt = ok(
      await ctx.request('POST', `${API}/data-types`, {
        token: ctx.adminToken,
        body: {
          system_flavor_id: flavor.id,
          code: unique('wide'),
          params_schema: {},
          render_template: repeat,
        },
      }),
      201,
    );
    const leaf = ok(
      await ctx.request('POST', `${API}/data-types`, {
        token: ctx.adminToken,
        body: { system_flavor_id: flavor.id, code: unique('leaf'), params_schema: {}, render_template: 'i' },
      }),
      201,
    );
    const root = await instance({ data_type_id: dt.id });
    const items = Array.from({ length: 200 }, (_, i) => ({
      data_type_id: leaf.id,
      parent_id: root.id,
      slot: `field:${'n'.repeat(40)}${i}`,
    }));
    ok(await ctx.request('POST', `${base}/batch`, { token: ctx.userToken, body: { items } }), 201);
    const r = await ctx.request('GET', `${base}/${root.id}/render`, { token: ctx.userToken });
    expect(expectEnvelope(r, 422, 'TYPE_INSTANCE_RENDER_FAILED').detail).toMatch(
      /longer than 20000 characters/,
    );
  });

  it("stops a superuser's quadratic template on a user's long param: 422 TEMPLATE_RENDER_LIMIT", async () => {
    // The reported reproduction: unbounded, each render call blocked the event loop for about 20 s.
    const flavor = await createFlavor(ctx);
    const dataType = (code: string, params_schema: object, render_template: string) =>
      ctx.request('POST', `${API}/data-types`, {
        token: ctx.adminToken,
        body: { system_flavor_id: flavor.id, code: unique(code), params_schema, render_template },
      });
    const quadratic = ok(
      await dataType(
        'quadratic',
        { type: 'object', properties: { p: { type: 'string' } } },
        `{% for f in fields %}${'{% if p|join(p) == "x" %}{% endif %}'.repeat(50)}{% endfor %}`,
      ),
      201,
    );
    const leaf = ok(await dataType('leaf', {}, 'int'), 201);
    const root = await instance({ data_type_id: quadratic.id, type_params: { p: 'x'.repeat(3_000) } });
    const members = Array.from({ length: 10 }, (_, i) => ({
      data_type_id: leaf.id,
      parent_id: root.id,
      slot: `field:m${i}`,
    }));
    ok(await ctx.request('POST', `${base}/batch`, { token: ctx.userToken, body: { items: members } }), 201);
    const r = await ctx.request('GET', `${base}/${root.id}/render`, { token: ctx.userToken });
    expectEnvelope(r, 422, 'TEMPLATE_RENDER_LIMIT');
    expect(r.body.detail).toMatch(/^rendering produces more than [\d,]+ characters of text$/);
  });
});

interface PropertySchema {
  type?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
}

/** A valid value of a param: the first enum value, or a small number / string within bounds. */
function validValue(p: PropertySchema): unknown {
  if (p.enum) return p.enum[0];
  switch (p.type) {
    case 'integer':
    case 'number': {
      const low =
        p.minimum ?? (p.exclusiveMinimum !== undefined ? Math.floor(p.exclusiveMinimum) + 1 : undefined);
      const high =
        p.maximum ?? (p.exclusiveMaximum !== undefined ? Math.ceil(p.exclusiveMaximum) - 1 : undefined);
      let value = 2;
      if (low !== undefined && value < low) value = low;
      if (high !== undefined && value > high) value = high;
      return value;
    }
    case 'string':
      return 'x'.repeat(Math.max(1, p.minLength ?? 1));
    case 'boolean':
      return true;
    default:
      throw new Error(`no value for ${JSON.stringify(p)}`);
  }
}

const CHILD_SLOTS = ['item', 'element', 'key', 'value'] as const;

describe('type instances: every seeded type renders', () => {
  it.each(['postgres14', 'mysql8', 'sqlite3', 'iceberg_v2'])(
    '%s: with required params only, then with every optional param',
    async (flavorCode) => {
      const types = await dataTypesOf(ctx, flavorCode);
      expect(types.size).toBeGreaterThan(10);
      const leaf = [...types.values()].find(
        (t) =>
          Object.keys(t.params_schema.properties ?? {}).length === 0 &&
          t.render_template &&
          !/[{}]/.test(t.render_template),
      ) as Row;
      const failures: string[] = [];
      let renders = 0;

      const renderVariant = async (type: Row, params: Record<string, unknown>): Promise<void> => {
        const template: string = type.render_template ?? '';
        const root = await createInstance({
          data_type_id: type.id,
          type_params: Object.keys(params).length > 0 ? params : null,
        });
        if (root.status !== 201) {
          failures.push(
            `${type.code} ${JSON.stringify(params)}: create ${root.status} ${JSON.stringify(root.body)}`,
          );
          return;
        }
        const children: { slot: string }[] = CHILD_SLOTS.filter((slot) =>
          new RegExp(`\\b${slot}\\b`).test(template),
        ).map((slot) => ({ slot }));
        if (/\bfields\b/.test(template)) children.push({ slot: 'field:a' }, { slot: 'field:b' });
        for (const child of children) {
          const c = await createInstance({
            data_type_id: leaf.id,
            parent_id: root.body.id,
            slot: child.slot,
          });
          if (c.status !== 201) failures.push(`${type.code}: child ${child.slot} ${c.status}`);
        }
        const r = await ctx.request('GET', `${base}/${root.body.id}/render`, { token: ctx.userToken });
        renders++;
        const text: unknown = r.body?.rendered;
        if (r.status !== 200 || typeof text !== 'string' || text.length === 0 || /[{}]|\(\)/.test(text)) {
          failures.push(`${type.code} ${JSON.stringify(params)}: ${r.status} ${JSON.stringify(r.body)}`);
          return;
        }
        for (const [name, value] of Object.entries(params)) {
          if (template.includes(`{{ ${name} }}`) && !text.includes(String(value))) {
            failures.push(`${type.code}: '${text}' lacks ${name}=${String(value)}`);
          }
        }
        if (children.length > 0 && !text.includes(leaf.render_template))
          failures.push(`${type.code}: '${text}' lacks its children`);
      };

      await Promise.all(
        [...types.values()].map(async (type) => {
          const schema = type.params_schema as {
            properties?: Record<string, PropertySchema>;
            required?: string[];
          };
          const properties = schema.properties ?? {};
          const required = new Set(schema.required ?? []);
          const minimal = Object.fromEntries(
            Object.entries(properties)
              .filter(([n]) => required.has(n))
              .map(([n, p]) => [n, validValue(p)]),
          );
          await renderVariant(type, minimal);
          if (Object.keys(properties).some((n) => !required.has(n))) {
            await renderVariant(
              type,
              Object.fromEntries(Object.entries(properties).map(([n, p]) => [n, validValue(p)])),
            );
          }
        }),
      );
      expect(failures).toEqual([]);
      expect(renders).toBeGreaterThanOrEqual(types.size);
    },
  );

  it('renders seeded optional params cleanly: varchar / varchar(2), timestamp(2) with time zone', async () => {
    const check = async (code: string, params: Record<string, unknown> | null, text: string) => {
      expect(
        await rendered((await instance({ data_type_id: typeId(pg, code), type_params: params })).id),
      ).toBe(text);
    };
    await check('varchar', null, 'varchar');
    await check('varchar', { length: 2 }, 'varchar(2)');
    await check('numeric', { precision: 7 }, 'numeric(7)');
    await check('timestamptz', { precision: 2 }, 'timestamp(2) with time zone');
    await check('timestamptz', null, 'timestamp with time zone');
    const mysqlVarchar = await dataTypeOf(ctx, 'mysql8', 'varchar');
    expect(
      await rendered((await instance({ data_type_id: mysqlVarchar.id, type_params: { length: 255 } })).id),
    ).toBe('varchar(255)');
  });
});

describe('type specs rendered without storing them (POST /type-instances/render)', () => {
  const flavorOf = (map: Map<string, Row>): string => [...map.values()][0]?.system_flavor_id as string;
  const preview = (body: unknown, token: string | null = ctx.userToken) =>
    ctx.request('POST', `${base}/render`, { token, body });

  it('renders one node and nested trees of the flavor, writing nothing', async () => {
    const before = ok(await ctx.request('GET', `${base}?size=1`, { token: ctx.userToken })).total;
    const flavor = flavorOf(pg);
    expect(
      ok(
        await preview({
          system_flavor_id: flavor,
          type: { data_type: 'numeric', params: { precision: 12, scale: 2 } },
        }),
      ),
    ).toEqual({ rendered: 'numeric(12,2)' });
    expect(
      ok(
        await preview({
          system_flavor_id: flavor,
          type: {
            data_type: 'array',
            children: [{ slot: 'item', type: { data_type: 'varchar', params: { length: 10 } } }],
          },
        }),
      ),
    ).toEqual({ rendered: 'varchar(10)[]' });
    // The same spec renders as a stored instance of it does.
    const stored = await instance({ data_type_id: typeId(pg, 'varchar'), type_params: { length: 40 } });
    expect(
      ok(await preview({ system_flavor_id: flavor, type: { data_type: 'varchar', params: { length: 40 } } })),
    ).toEqual({ rendered: await rendered(stored.id) });
    const after = ok(await ctx.request('GET', `${base}?size=1`, { token: ctx.userToken })).total;
    expect(after).toBe(before + 1); // the one stored above, none from the previews
  });

  it('answers the codes a publish gives for the same spec, and 401 without a token', async () => {
    const flavor = flavorOf(pg);
    expectEnvelope(
      await preview({ system_flavor_id: flavor, type: { data_type: 'nope' } }),
      404,
      'DATA_TYPE_NOT_FOUND',
    );
    const invalid = expectEnvelope(
      await preview({ system_flavor_id: flavor, type: { data_type: 'varchar', params: { length: -1 } } }),
      422,
      'TYPE_INSTANCE_PARAMS_INVALID',
    );
    expect(issuePaths(invalid)).toContain('type.params.length');
    expectEnvelope(
      await preview({ system_flavor_id: UNKNOWN_ID, type: { data_type: 'integer' } }),
      404,
      'SYSTEM_FLAVOR_NOT_FOUND',
    );
    // iceberg's types are not postgres14's: the spec names codes of the flavor given.
    expectEnvelope(
      await preview({
        system_flavor_id: flavorOf(iceberg),
        type: { data_type: 'varchar', params: { length: 5 } },
      }),
      404,
      'DATA_TYPE_NOT_FOUND',
    );
    expectEnvelope(await preview({ type: { data_type: 'integer' } }), 422, 'VALIDATION_ERROR');
    expectEnvelope(
      await preview({ system_flavor_id: flavor, type: { data_type: 'integer' } }, null),
      401,
      'UNAUTHORIZED',
    );
  });
});
