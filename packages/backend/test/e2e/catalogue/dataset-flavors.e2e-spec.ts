// A dataset may have its own flavor (ADR 0045, issue 24): a Kafka cluster holds Avro, Protobuf and JSON
// Schema subjects side by side. `flavor_id` must be a flavor of the system's kind (422
// DATASET_FLAVOR_KIND_MISMATCH); a version's column types resolve in COALESCE(dataset, system) flavor;
// the snapshot a crawler reads names each dataset's effective flavor; and a Kafka dataset may leave
// partitions and retention_ms unknown.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  API,
  column,
  createDataset,
  datasetBody,
  flavorByCode,
  listAll,
  publish,
  type Row,
  seedReference,
} from '../../helpers/catalogue.js';
import { createFlavor, createSystem, ok, UNKNOWN_ID } from '../../helpers/factories.js';
import { createTestContext, expectEnvelope, type TestContext } from '../../helpers/test-app.js';

let ctx: TestContext;
let avro: Row;
let jsonSchema: Row;
/** A second Kafka flavor made here, with types the Avro flavor does not have (int64) or shares (string). */
let proto: Row;
let protoInt64: Row;
let kafkaSystem: Row;

const datasets = `${API}/datasets`;

async function createType(flavorId: string, code: string): Promise<Row> {
  const r = await ctx.request('POST', `${API}/data-types`, {
    token: ctx.adminToken,
    body: { system_flavor_id: flavorId, code, params_schema: {}, render_template: code },
  });
  return ok(r, 201);
}

beforeAll(async () => {
  ctx = await createTestContext();
  await seedReference(ctx);
  avro = await flavorByCode(ctx, 'avro');
  jsonSchema = await flavorByCode(ctx, 'json_schema');
  proto = await createFlavor(ctx, avro.kind_id);
  protoInt64 = await createType(proto.id, 'int64');
  await createType(proto.id, 'string');
  kafkaSystem = await createSystem(ctx, avro.id);
});
afterAll(async () => {
  await ctx.close();
});

const createBody = (overrides: Record<string, unknown> = {}) =>
  ctx.request('POST', datasets, {
    token: ctx.userToken,
    body: datasetBody('kafka', kafkaSystem.id, overrides),
  });

describe('creating a dataset with its own flavor', () => {
  it('takes a flavor of the system kind, returns it, and lists by it', async () => {
    const dataset = ok(await createBody({ flavor_id: proto.id }), 201);
    expect(dataset.flavor_id).toBe(proto.id);
    expect(
      ok(await ctx.request('GET', `${datasets}/${dataset.id}`, { token: ctx.userToken })).flavor_id,
    ).toBe(proto.id);
    const plain = await createDataset(ctx, kafkaSystem.id, 'kafka');
    expect(plain.flavor_id).toBeNull();
    const listed = await listAll(ctx, 'datasets', `flavor_id=${proto.id}`);
    expect(listed.map((d) => d.id)).toContain(dataset.id);
    expect(listed.every((d) => d.flavor_id === proto.id)).toBe(true);
  });

  it('refuses a flavor of another kind with 422 DATASET_FLAVOR_KIND_MISMATCH, and an unknown one with 404', async () => {
    const postgres = await flavorByCode(ctx, 'postgres14');
    const refused = expectEnvelope(
      await createBody({ flavor_id: postgres.id }),
      422,
      'DATASET_FLAVOR_KIND_MISMATCH',
    );
    expect(refused.details).toEqual({ flavor_id: postgres.id, flavor_kind: 'rdbms', system_kind: 'kafka' });
    expectEnvelope(await createBody({ flavor_id: UNKNOWN_ID }), 404, 'SYSTEM_FLAVOR_NOT_FOUND');
    expect(await listAll(ctx, 'datasets', `flavor_id=${postgres.id}`)).toEqual([]);
  });

  it('takes a Kafka dataset without partitions and retention_ms (a schema registry cannot know them)', async () => {
    const body = datasetBody('kafka', kafkaSystem.id);
    delete body.partitions;
    delete body.retention_ms;
    const dataset = ok(await ctx.request('POST', datasets, { token: ctx.userToken, body }), 201);
    expect(dataset).toMatchObject({ partitions: null, retention_ms: null });
    const filled = ok(
      await ctx.request('PATCH', `${datasets}/${dataset.id}`, {
        token: ctx.userToken,
        body: { kind: 'kafka', partitions: 3, retention_ms: 86_400_000, row_version: dataset.row_version },
      }),
    );
    expect(filled).toMatchObject({ partitions: 3, retention_ms: 86_400_000 });
  });
});

describe('publishing a version of a dataset with its own flavor', () => {
  let dataset: Row;
  beforeAll(async () => {
    dataset = ok(await createBody({ flavor_id: proto.id }), 201);
  });

  it("refuses a code of the system's flavor that the dataset's flavor lacks (DATA_TYPE_NOT_FOUND)", async () => {
    // `long` is Avro's; the dataset is typed in the other flavor.
    expectEnvelope(
      await publish(ctx, dataset.id, { columns: [column('id', 'long', undefined, false)] }),
      404,
      'DATA_TYPE_NOT_FOUND',
    );
  });

  it("resolves the column types in the dataset's flavor (201)", async () => {
    const body = ok(
      await publish(ctx, dataset.id, {
        columns: [column('id', 'int64', undefined, false), column('name', 'string')],
      }),
      201,
    );
    const [id, name] = body.version.columns as Row[];
    expect(id.type).toMatchObject({ data_type_id: protoInt64.id, data_type_code: 'int64' });
    expect(id.rendered_type).toBe('int64');
    const nameType = ok(
      await ctx.request('GET', `${API}/data-types/${name.type.data_type_id}`, { token: ctx.userToken }),
    );
    expect(nameType.system_flavor_id).toBe(proto.id);
  });

  it('refuses to change the flavor once a version has columns, and allows a no-op', async () => {
    const current = ok(await ctx.request('GET', `${datasets}/${dataset.id}`, { token: ctx.userToken }));
    const refused = expectEnvelope(
      await ctx.request('PATCH', `${datasets}/${dataset.id}`, {
        token: ctx.userToken,
        body: { kind: 'kafka', flavor_id: null, row_version: current.row_version },
      }),
      422,
      'TYPE_INSTANCE_FLAVOR_MISMATCH',
    );
    expect(refused.details).toMatchObject({ dataset_flavor_id: proto.id, requested_flavor_id: avro.id });
    const same = ok(
      await ctx.request('PATCH', `${datasets}/${dataset.id}`, {
        token: ctx.userToken,
        body: { kind: 'kafka', flavor_id: proto.id, note: 'same flavor', row_version: current.row_version },
      }),
    );
    expect(same.flavor_id).toBe(proto.id);
  });
});

describe('changing a dataset flavor before any version', () => {
  it('moves it to another flavor of the kind, refuses one of another kind', async () => {
    const dataset = await createDataset(ctx, kafkaSystem.id, 'kafka');
    const patch = (body: Record<string, unknown>) =>
      ctx.request('PATCH', `${datasets}/${dataset.id}`, {
        token: ctx.userToken,
        body: { kind: 'kafka', ...body },
      });
    const hive = await flavorByCode(ctx, 'hive3');
    expectEnvelope(await patch({ flavor_id: hive.id, row_version: 1 }), 422, 'DATASET_FLAVOR_KIND_MISMATCH');
    const moved = ok(await patch({ flavor_id: jsonSchema.id, row_version: 1 }));
    expect(moved.flavor_id).toBe(jsonSchema.id);
    // Typed in JSON Schema from now on: `integer` is its code, not Avro's.
    const body = ok(await publish(ctx, dataset.id, { columns: [column('n', 'integer')] }), 201);
    expect(body.version.columns[0].rendered_type).toBe('{"type":"integer"}');
  });
});

describe('the flavor a dataset names', () => {
  it('cannot be deleted, nor moved to another kind, while the dataset is active', async () => {
    const own = await createFlavor(ctx, avro.kind_id);
    const dataset = ok(await createBody({ flavor_id: own.id }), 201);
    expectEnvelope(
      await ctx.request('DELETE', `${API}/system-flavors/${own.id}`, { token: ctx.adminToken }),
      409,
      'HAS_DEPENDENT_ENTITIES',
    );
    const rdbms = await flavorByCode(ctx, 'postgres14');
    expectEnvelope(
      await ctx.request('PATCH', `${API}/system-flavors/${own.id}`, {
        token: ctx.adminToken,
        body: { kind_id: rdbms.kind_id, row_version: own.row_version },
      }),
      422,
      'DATASET_SYSTEM_KIND_MISMATCH',
    );
    ok(await ctx.request('DELETE', `${datasets}/${dataset.id}`, { token: ctx.adminToken }));
    ok(await ctx.request('DELETE', `${API}/system-flavors/${own.id}`, { token: ctx.adminToken }));
  });
});

describe('bulk publish of new datasets', () => {
  const bulkPublish = (items: unknown[]) =>
    ctx.request('POST', `${API}/schema-versions/bulk`, { token: ctx.userToken, body: { items } });

  it("creates each dataset in its flavor and resolves its types there; refuses another kind's flavor", async () => {
    const postgres = await flavorByCode(ctx, 'postgres14');
    const body = ok(
      await bulkPublish([
        {
          dataset: datasetBody('kafka', kafkaSystem.id, { flavor_id: proto.id }),
          base_version_num: null,
          columns: [column('id', 'int64', undefined, false)],
        },
        {
          dataset: datasetBody('kafka', kafkaSystem.id, { flavor_id: postgres.id }),
          base_version_num: null,
          columns: [column('id', 'bigint', undefined, false)],
        },
        {
          dataset: datasetBody('kafka', kafkaSystem.id),
          base_version_num: null,
          columns: [column('id', 'int64', undefined, false)],
        },
      ]),
    );
    const [inProto, wrongKind, inAvro] = body.items as Row[];
    expect(inProto.status).toBe('created');
    const version = ok(
      await ctx.request('GET', `${datasets}/${inProto.dataset_id}/schema-versions/1`, {
        token: ctx.userToken,
      }),
    );
    expect(version.columns[0].type.data_type_id).toBe(protoInt64.id);
    const created = ok(
      await ctx.request('GET', `${datasets}/${inProto.dataset_id}`, { token: ctx.userToken }),
    );
    expect(created.flavor_id).toBe(proto.id);
    expect(wrongKind.status).toBe('failed');
    expect(wrongKind.error.error_code).toBe('DATASET_FLAVOR_KIND_MISMATCH');
    // No flavor of its own: typed in the system's (Avro), which has no int64.
    expect(inAvro.status).toBe('failed');
    expect(inAvro.error.error_code).toBe('DATA_TYPE_NOT_FOUND');
  });
});

describe('the system snapshot', () => {
  it("names each dataset's effective flavor: its own, else its system's", async () => {
    const system = await createSystem(ctx, avro.id);
    const own = ok(
      await ctx.request('POST', datasets, {
        token: ctx.userToken,
        body: datasetBody('kafka', system.id, { flavor_id: jsonSchema.id }),
      }),
      201,
    );
    const plain = await createDataset(ctx, system.id, 'kafka');
    const page = ok(
      await ctx.request('GET', `${API}/systems/${system.id}/snapshot`, { token: ctx.userToken }),
    );
    const byId = new Map((page.items as Row[]).map((item) => [item.dataset.id, item]));
    expect(byId.get(own.id)).toMatchObject({
      flavor_id: jsonSchema.id,
      flavor_code: 'json_schema',
      dataset: { flavor_id: jsonSchema.id },
    });
    expect(byId.get(plain.id)).toMatchObject({
      flavor_id: avro.id,
      flavor_code: 'avro',
      dataset: { flavor_id: null },
    });
  });
});
