// POST /cast-rules/resolve and type rendering with the seeded flavors of issue 24 §1: protobuf and the
// Arrow-typed file flavors (ADR 0044), through the matrix the seeder generated (ADR 0043).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API, dataTypesOf, type Row, seedReference } from '../../helpers/catalogue.js';
import { ok } from '../../helpers/factories.js';
import { createTestContext, type TestContext } from '../../helpers/test-app.js';

let ctx: TestContext;
const types = new Map<string, Map<string, Row>>();

beforeAll(async () => {
  ctx = await createTestContext();
  await seedReference(ctx);
  for (const flavor of ['storage_files', 'protobuf', 'spark_sql'])
    types.set(flavor, await dataTypesOf(ctx, flavor));
});
afterAll(async () => {
  await ctx.close();
});

function id(flavor: string, code: string): string {
  const row = types.get(flavor)?.get(code);
  if (!row) throw new Error(`no data type ${flavor}.${code}`);
  return row.id;
}

/** A type instance (under `parent` in `slot` when given). */
async function instance(
  flavor: string,
  code: string,
  typeParams: Record<string, unknown> | null = null,
  parent?: { id: string; slot: string },
): Promise<Row> {
  const body = {
    data_type_id: id(flavor, code),
    type_params: typeParams,
    ...(parent ? { parent_id: parent.id, slot: parent.slot } : {}),
  };
  return ok(await ctx.request('POST', `${API}/type-instances`, { token: ctx.userToken, body }), 201);
}

const rendered = async (root: Row) =>
  ok(await ctx.request('GET', `${API}/type-instances/${root.id}/render`, { token: ctx.userToken })).rendered;

const resolve = async (body: Record<string, unknown>) =>
  ok(await ctx.request('POST', `${API}/cast-rules/resolve`, { token: ctx.userToken, body }));

describe('protobuf and file types: rendering and resolve', () => {
  it('renders protobuf map<string, int64>, repeated google.protobuf.Timestamp and Arrow timestamp[us, tz=UTC]', async () => {
    const map = await instance('protobuf', 'map');
    await instance('protobuf', 'string', null, { id: map.id, slot: 'key' });
    await instance('protobuf', 'int64', null, { id: map.id, slot: 'value' });
    expect(await rendered(map)).toBe('map<string, int64>');

    const repeated = await instance('protobuf', 'repeated');
    await instance('protobuf', 'timestamp', null, { id: repeated.id, slot: 'item' });
    expect(await rendered(repeated)).toBe('repeated google.protobuf.Timestamp');

    const timestamp = await instance('storage_files', 'timestamp', { unit: 'us', timezone: 'UTC' });
    expect(await rendered(timestamp)).toBe('timestamp[us, tz=UTC]');

    // repeated Timestamp in files: a list of nanosecond instants, exact.
    expect(await resolve({ type_instance_id: repeated.id, target_flavor: 'storage_files' })).toMatchObject({
      target_code: 'list',
      rendered: 'list<item: timestamp[ns, tz=UTC]>',
      fidelity: 'exact',
    });
  });

  it('Arrow decimal(40,2) → postgres14 numeric(40,2), exact', async () => {
    expect(
      await resolve({
        data_type_id: id('storage_files', 'decimal'),
        type_params: { precision: 40, scale: 2 },
        target_flavor: 'postgres14',
      }),
    ).toMatchObject({
      target_code: 'numeric',
      type_params: { precision: 40, scale: 2 },
      rendered: 'numeric(40,2)',
      fidelity: 'exact',
      safety: 'implicit',
    });
  });

  it('protobuf uint64 → Avro decimal(20,0) (every value kept), → JSON Schema integer (lossy: range)', async () => {
    expect(await resolve({ data_type_id: id('protobuf', 'uint64'), target_flavor: 'avro' })).toMatchObject({
      target_code: 'decimal_bytes',
      rendered: '{"type":"bytes","logicalType":"decimal","precision":20,"scale":0}',
      fidelity: 'widening',
    });
    expect(
      await resolve({ data_type_id: id('protobuf', 'uint64'), target_flavor: 'json_schema' }),
    ).toMatchObject({ target_code: 'integer', fidelity: 'lossy', safety: 'unsafe', loss: ['range'] });
  });

  it('spark_sql map<int,string> → Avro map of strings, lossy: its keys become strings', async () => {
    const map = await instance('spark_sql', 'map');
    await instance('spark_sql', 'int', null, { id: map.id, slot: 'key' });
    await instance('spark_sql', 'string', null, { id: map.id, slot: 'value' });
    expect(await resolve({ type_instance_id: map.id, target_flavor: 'avro' })).toMatchObject({
      target_code: 'map',
      rendered: '{"type":"map","values":"string"}',
      fidelity: 'lossy',
      safety: 'unsafe',
      loss: ['non-string keys become strings'],
    });
  });
});
