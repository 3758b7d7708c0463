// The catalogue against the real backend, seeded with the reference data (postgres14, iceberg_v2 and
// the casts between them): data types, type instances and trees, cast resolution, datasets of each
// kind, fields, PII classifications, schema versions (publish, no-op publish, history, diff), the
// granular schema routes and crawl runs.
import { randomUUID } from 'node:crypto';
import { DATASET_KIND_SYSTEM_KINDS, type PublishColumn, type System, type SystemFlavor } from '@aide/schemas';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  type AideClient,
  ConflictError,
  type DatasetOf,
  NotFoundError,
  ValidationError,
} from '../src/index.js';
import { adminClient, recordingDispatcher, unique } from './helpers/backend.js';

const recorder = recordingDispatcher();
let client: AideClient;
let postgres: SystemFlavor;
let systemId: string;

/** The seeded flavor with this code. */
async function flavor(code: string): Promise<SystemFlavor> {
  const { items } = await client.systemFlavors.list({ code });
  if (items.length !== 1) throw new Error(`flavor ${code} is not seeded: is AIDE_SEED_ON_START on?`);
  return items[0]!;
}

/** The id of a data type of a flavor, by code. */
async function dataTypeId(flavorId: string, code: string): Promise<string> {
  const { items } = await client.dataTypes.list({ system_flavor_id: flavorId, code });
  expect(items).toHaveLength(1);
  return items[0]!.id;
}

/** A kind and a flavor of their own, for reference data the tests change. */
async function ownFlavor(): Promise<SystemFlavor> {
  const kind = await client.systemKinds.create({ code: unique('kind'), name: 'Catalogue fixture' });
  return client.systemFlavors.create({ code: unique('flavor'), name: 'Fixture', kind_id: kind.id });
}

/**
 * A new system that can hold datasets of `kind` (its system kind's code is the table's,
 * DATASET_KIND_SYSTEM_KINDS): the system kind is found or created, with a flavor of its own.
 */
async function systemFor(kind: 'kafka' | 'storage'): Promise<System> {
  const code = DATASET_KIND_SYSTEM_KINDS[kind][0];
  const [existing] = (await client.systemKinds.list({ code })).items;
  const systemKind = existing ?? (await client.systemKinds.create({ code, name: `${code} systems` }));
  const flavor = await client.systemFlavors.create({
    code: unique(code),
    name: `Fixture ${code}`,
    kind_id: systemKind.id,
  });
  return client.systems.create({
    code: unique(`${code}-system`),
    name: `A ${code} system`,
    flavor_id: flavor.id,
  });
}

/** An rdbms dataset on the run's postgres14 system. */
function rdbmsDataset(name = unique('orders')): Promise<DatasetOf<'rdbms'>> {
  return client.datasets.create({
    kind: 'rdbms',
    system_id: systemId,
    object_name: `public.${name}`,
    schema_name: 'public',
    table_name: name,
  });
}

beforeAll(async () => {
  client = adminClient({ dispatcher: recorder.dispatcher });
  postgres = await flavor('postgres14');
  const system = await client.systems.create({
    code: unique('orders-db'),
    name: 'Orders database',
    flavor_id: postgres.id,
  });
  systemId = system.id;
});

afterAll(async () => {
  await client.close();
  await recorder.close();
});

describe('data types', () => {
  it('the seeded types of a flavor, and create, createMany, update, delete, restore', async () => {
    const numeric = await client.dataTypes.get(await dataTypeId(postgres.id, 'numeric'));
    expect(numeric).toMatchObject({ code: 'numeric', system_flavor_id: postgres.id });
    expect(numeric.render_template).toContain('precision');

    const own = await ownFlavor();
    const money = await client.dataTypes.create({
      system_flavor_id: own.id,
      code: 'money',
      params_schema: {
        type: 'object',
        properties: { currency: { type: 'string' } },
        additionalProperties: false,
      },
      render_template: 'money{% if currency is defined %}<{{ currency }}>{% endif %}',
      description: 'An amount of money',
    });
    expect(money).toMatchObject({ code: 'money', deleted_at: null, row_version: 1 });
    const batch = await client.dataTypes.createMany([
      { system_flavor_id: own.id, code: 'int', params_schema: {}, render_template: 'int' },
      { system_flavor_id: own.id, code: 'text', params_schema: {}, render_template: 'text' },
    ]);
    expect(batch.map((t) => t.code)).toEqual(['int', 'text']);
    const listed = await client.dataTypes.list({ system_flavor_id: own.id, sort: 'code' });
    expect(listed.items.map((t) => t.code)).toEqual(['int', 'money', 'text']);

    const updated = await client.dataTypes.update(money.id, {
      description: null,
      row_version: money.row_version,
    });
    expect(updated).toMatchObject({ description: null, row_version: 2 });
    expect((await client.dataTypes.delete(money.id)).deleted_at).not.toBeNull();
    await expect(client.dataTypes.get(money.id)).rejects.toMatchObject({ errorCode: 'DATA_TYPE_NOT_FOUND' });
    expect((await client.dataTypes.restore(money.id)).deleted_at).toBeNull();
    await expect(
      client.dataTypes.create({ system_flavor_id: own.id, code: 'money', params_schema: {} }),
    ).rejects.toMatchObject({ status: 409, errorCode: 'DATA_TYPE_ALREADY_EXISTS' });
  });
});

describe('type instances', () => {
  it('create a tree, render it, read it as a tree; createMany, update, delete', async () => {
    const numeric = await client.typeInstances.create({
      data_type_id: await dataTypeId(postgres.id, 'numeric'),
      type_params: { precision: 12, scale: 2 },
    });
    expect(await client.typeInstances.render(numeric.id)).toEqual({
      type_instance_id: numeric.id,
      rendered: 'numeric(12,2)',
    });

    // varchar(10)[]: an array with a varchar child in slot `item`.
    const array = await client.typeInstances.create({ data_type_id: await dataTypeId(postgres.id, 'array') });
    const [item] = await client.typeInstances.createMany([
      {
        data_type_id: await dataTypeId(postgres.id, 'varchar'),
        type_params: { length: 10 },
        parent_id: array.id,
        slot: 'item',
      },
    ]);
    expect(item).toMatchObject({ parent_id: array.id, slot: 'item' });
    expect((await client.typeInstances.render(array.id)).rendered).toBe('varchar(10)[]');
    expect(await client.typeInstances.tree(array.id)).toEqual({
      id: array.id,
      data_type_id: array.data_type_id,
      data_type_code: 'array',
      type_params: null,
      slot: null,
      children: [
        {
          id: item!.id,
          data_type_id: item!.data_type_id,
          data_type_code: 'varchar',
          type_params: { length: 10 },
          slot: 'item',
          children: [],
        },
      ],
    });

    const widened = await client.typeInstances.update(numeric.id, {
      type_params: { precision: 14, scale: 2 },
      row_version: numeric.row_version,
    });
    expect(widened.type_params).toEqual({ precision: 14, scale: 2 });
    expect((await client.typeInstances.render(numeric.id)).rendered).toBe('numeric(14,2)');
    await expect(
      client.typeInstances.create({
        data_type_id: await dataTypeId(postgres.id, 'numeric'),
        type_params: { precision: 'twelve' },
      }),
    ).rejects.toMatchObject({ status: 422, errorCode: 'TYPE_INSTANCE_PARAMS_INVALID' });

    // A spec rendered without storing it: the preview of a column type.
    expect(
      await client.typeInstances.renderSpec({
        system_flavor_id: postgres.id,
        type: {
          data_type: 'array',
          children: [{ slot: 'item', type: { data_type: 'numeric', params: { precision: 9 } } }],
        },
      }),
    ).toEqual({ rendered: 'numeric(9)[]' });
    await expect(
      client.typeInstances.renderSpec({ system_flavor_id: postgres.id, type: { data_type: 'no_such_type' } }),
    ).rejects.toMatchObject({ status: 404, errorCode: 'DATA_TYPE_NOT_FOUND' });

    // A hard delete: gone, no restore.
    expect((await client.typeInstances.delete(numeric.id)).id).toBe(numeric.id);
    await expect(client.typeInstances.get(numeric.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.typeInstances.tree(numeric.id)).rejects.toMatchObject({
      errorCode: 'TYPE_INSTANCE_NOT_FOUND',
    });
  });
});

describe('cast rules', () => {
  it('resolve numeric(12,2) to iceberg_v2: decimal(12,2), from a type instance or a data type', async () => {
    const numericId = await dataTypeId(postgres.id, 'numeric');
    const instance = await client.typeInstances.create({
      data_type_id: numericId,
      type_params: { precision: 12, scale: 2 },
    });
    const fromInstance = await client.castRules.resolve({
      type_instance_id: instance.id,
      target_flavor: 'iceberg_v2',
    });
    expect(fromInstance).toMatchObject({
      source_code: 'numeric',
      target_code: 'decimal',
      target_flavor: 'iceberg_v2',
      type_params: { precision: 12, scale: 2 },
      rendered: 'decimal(12,2)',
      safety: 'safe',
    });
    const iceberg = await flavor('iceberg_v2');
    expect(fromInstance.target_data_type_id).toBe(await dataTypeId(iceberg.id, 'decimal'));
    expect((await client.castRules.get(fromInstance.cast_rule_id)).safety).toBe('safe');

    const fromDataType = await client.castRules.resolve({
      data_type_id: numericId,
      type_params: { precision: 12, scale: 2 },
      target_flavor: 'iceberg_v2',
    });
    expect(fromDataType).toEqual(fromInstance);

    await expect(
      client.castRules.resolve({ type_instance_id: instance.id, target_flavor: 'no-such-flavor' }),
    ).rejects.toMatchObject({ status: 404, errorCode: 'SYSTEM_FLAVOR_NOT_FOUND' });
  });

  it('create, createMany, update, delete; resolve without a rule is CAST_RULE_NOT_RESOLVABLE', async () => {
    const source = await ownFlavor();
    const target = await ownFlavor();
    const [int, text] = await client.dataTypes.createMany([
      { system_flavor_id: source.id, code: 'int', params_schema: {}, render_template: 'int' },
      { system_flavor_id: source.id, code: 'text', params_schema: {}, render_template: 'text' },
    ]);
    const [long, string] = await client.dataTypes.createMany([
      { system_flavor_id: target.id, code: 'long', params_schema: {}, render_template: 'long' },
      { system_flavor_id: target.id, code: 'string', params_schema: {}, render_template: 'string' },
    ]);

    const rule = await client.castRules.create({
      source_data_type_id: int!.id,
      target_data_type_id: long!.id,
      safety: 'safe',
    });
    expect(rule).toMatchObject({ param_mapping: {}, safety: 'safe' });
    const [textRule] = await client.castRules.createMany([
      { source_data_type_id: text!.id, target_data_type_id: string!.id, safety: 'implicit' },
    ]);
    const updated = await client.castRules.update(rule.id, {
      safety: 'implicit',
      row_version: rule.row_version,
    });
    expect(updated.safety).toBe('implicit');
    const resolved = await client.castRules.resolve({ data_type_id: int!.id, target_flavor: target.code });
    expect(resolved).toMatchObject({ cast_rule_id: rule.id, rendered: 'long', safety: 'implicit' });

    await client.castRules.delete(textRule!.id);
    const error = await client.castRules
      .resolve({ data_type_id: text!.id, target_flavor: target.code })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ status: 422, errorCode: 'CAST_RULE_NOT_RESOLVABLE' });
  });
});

describe('datasets', () => {
  it('kind-typed create, get, list, update, delete, restore', async () => {
    const table = await rdbmsDataset();
    expect(table).toMatchObject({ kind: 'rdbms', schema_name: 'public', is_view: false, pk_columns: null });
    const tableName: string = table.table_name; // typed by the kind
    expect(tableName).toBe(table.object_name.slice('public.'.length));

    // A topic lives on a Kafka system: on the postgres14 system it is 422 DATASET_SYSTEM_KIND_MISMATCH.
    const kafkaSystem = await systemFor('kafka');
    const topicBody = {
      kind: 'kafka' as const,
      system_id: kafkaSystem.id,
      object_name: unique('orders-topic'),
      topic: 'orders.v1',
      format: 'avro',
      partitions: 12,
      retention_ms: 604_800_000,
      key_columns: ['order_id'],
      layer: 'kafka' as const,
    };
    await expect(client.datasets.create({ ...topicBody, system_id: systemId })).rejects.toMatchObject({
      status: 422,
      errorCode: 'DATASET_SYSTEM_KIND_MISMATCH',
    });
    const topic = await client.datasets.create(topicBody);
    expect(topic).toMatchObject({ kind: 'kafka', partitions: 12, key_columns: ['order_id'], layer: 'kafka' });

    const read = await client.datasets.get(topic.id);
    expect(read).toEqual(topic);
    if (read.kind !== 'kafka') throw new Error('expected a kafka dataset');
    expect(read.retention_ms).toBe(604_800_000);

    const kafka = await client.datasets.list({ system_id: kafkaSystem.id, kind: 'kafka' });
    expect(kafka.items.map((d) => d.id)).toEqual([topic.id]);

    const updated = await client.datasets.update(topic.id, {
      kind: 'kafka',
      partitions: 24,
      row_version: topic.row_version,
    });
    expect(updated).toMatchObject({ partitions: 24, topic: 'orders.v1', row_version: 2 });
    await expect(
      client.datasets.update(topic.id, { kind: 'rdbms', table_name: 'x', row_version: updated.row_version }),
    ).rejects.toMatchObject({ errorCode: 'DATASET_KIND_MISMATCH' });

    await client.datasets.delete(table.id);
    await expect(client.datasets.get(table.id)).rejects.toMatchObject({ errorCode: 'DATASET_NOT_FOUND' });
    expect((await client.datasets.restore(table.id)).deleted_at).toBeNull();
    await expect(
      client.datasets.create({
        kind: 'rdbms',
        system_id: systemId,
        object_name: table.object_name,
        schema_name: 'public',
        table_name: table.table_name,
      }),
    ).rejects.toBeInstanceOf(ConflictError);
  });

  it('walks more than three pages of datasets with for await, one request per page', async () => {
    const system = await systemFor('storage');
    const names: string[] = [];
    for (let i = 0; i < 7; i++) {
      const dataset = await client.datasets.create({
        kind: 'storage',
        system_id: system.id,
        object_name: `landing/orders-${i}`,
        path: `s3://landing/orders/${i}/`,
        file_format: 'parquet',
      });
      names.push(dataset.object_name);
    }
    const before = recorder.requests.length;
    const seen: string[] = [];
    for await (const dataset of client.datasets.list({ system_id: system.id, size: 2 })) {
      if (dataset.kind === 'storage') seen.push(dataset.object_name);
    }
    expect(seen).toEqual(names);
    const pages = recorder.requests.slice(before).filter((r) => r.startsWith('GET /api/v1/datasets?'));
    expect(pages).toHaveLength(4);
  });

  it('pages datasets by keyset cursor without a count (total=none), ADR 0024', async () => {
    const system = await systemFor('storage');
    const created: string[] = [];
    for (let i = 0; i < 5; i++) {
      const dataset = await client.datasets.create({
        kind: 'storage',
        system_id: system.id,
        object_name: `cursor/part-${i}`,
        path: `s3://cursor/${i}/`,
        file_format: 'parquet',
      });
      created.push(dataset.id);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await client.datasets.list({
        system_id: system.id,
        sort: '-created_at',
        size: 2,
        total: 'none',
        ...(cursor ? { cursor } : {}),
      });
      seen.push(...page.items.map((d) => d.id));
      if (!page.next_cursor) break;
      cursor = page.next_cursor;
    }
    expect(new Set(seen)).toEqual(new Set(created));
    expect(seen).toHaveLength(created.length);
    // A request naming neither `cursor` nor `total` is answered as before: no `next_cursor`.
    expect(await client.datasets.list({ system_id: system.id, size: 2 })).not.toHaveProperty('next_cursor');
  });
});

describe('schema versions, fields and PII', () => {
  const arrayOf = (dataType: string, params: Record<string, unknown>): PublishColumn['type'] => ({
    data_type: 'array',
    children: [{ slot: 'item', type: { data_type: dataType, params } }],
  });
  const V1: PublishColumn[] = [
    { name: 'id', nullable: false, type: { data_type: 'bigint' } },
    { name: 'amount', nullable: false, type: { data_type: 'numeric', params: { precision: 12, scale: 2 } } },
    { name: 'tags', type: arrayOf('varchar', { length: 10 }) },
    { name: 'email', nullable: true, type: { data_type: 'varchar', params: { length: 320 } } },
  ];
  let datasetId: string;

  beforeAll(async () => {
    datasetId = (await rdbmsDataset()).id;
  });

  it('publish v1 (created), again unchanged (created: false), then v2, history and diff', async () => {
    const key = randomUUID();
    const first = await client.datasets.publishSchemaVersion(
      datasetId,
      { columns: V1, note: 'initial' },
      { idempotencyKey: key },
    );
    expect(first.created).toBe(true);
    expect(first.version).toMatchObject({ dataset_id: datasetId, version_num: 1 });
    expect(first.version.columns.map((c) => [c.name, c.position, c.nullable, c.rendered_type])).toEqual([
      ['id', 0, false, 'bigint'],
      ['amount', 1, false, 'numeric(12,2)'],
      ['tags', 2, true, 'varchar(10)[]'],
      ['email', 3, true, 'varchar(320)'],
    ]);
    expect(first.version.columns[2]!.type).toMatchObject({
      data_type_code: 'array',
      children: [{ data_type_code: 'varchar', slot: 'item', type_params: { length: 10 } }],
    });

    // The same key replays the first answer; without a key, the same columns are a no-op.
    expect(
      await client.datasets.publishSchemaVersion(
        datasetId,
        { columns: V1, note: 'initial' },
        { idempotencyKey: key },
      ),
    ).toEqual(first);
    const unchanged = await client.datasets.publishSchemaVersion(datasetId, { columns: V1 });
    expect(unchanged.created).toBe(false);
    expect(unchanged.version).toEqual(first.version);

    const v2 = await client.datasets.publishSchemaVersion(datasetId, {
      columns: [
        { name: 'id', nullable: false, type: { data_type: 'bigint' } },
        { name: 'email', nullable: false, type: { data_type: 'varchar', params: { length: 320 } } },
        {
          name: 'amount',
          nullable: false,
          type: { data_type: 'numeric', params: { precision: 14, scale: 2 } },
        },
        { name: 'created_at', type: { data_type: 'timestamptz' } },
      ],
    });
    expect(v2).toMatchObject({ created: true, version: { version_num: 2 } });

    const history = await client.datasets.schemaVersions(datasetId);
    expect(history.map((h) => [h.version_num, h.column_count])).toEqual([
      [2, 4],
      [1, 4],
    ]);
    expect(history[0]!.dataset_schema_id).toBe(v2.version.dataset_schema_id);
    expect(await client.datasets.schemaVersion(datasetId, 1)).toEqual(first.version);

    const diff = await client.datasets.diffSchemaVersions(datasetId, 1, 2);
    // The crawler's categories (defaults, keys, …) are in bulk.test.ts.
    expect(diff).toMatchObject({
      dataset_id: datasetId,
      from_version: 1,
      to_version: 2,
      added: [
        {
          name: 'created_at',
          position: 3,
          nullable: true,
          rendered_type: 'timestamp with time zone',
          native_type: null,
        },
      ],
      removed: [
        { name: 'tags', position: 2, nullable: true, rendered_type: 'varchar(10)[]', native_type: null },
      ],
      type_changed: [{ name: 'amount', from_type: 'numeric(12,2)', to_type: 'numeric(14,2)' }],
      nullability_changed: [{ name: 'email', from_nullable: true, to_nullable: false }],
      // Judged on the relative order of the columns both versions have.
      reordered: [
        { name: 'email', from_position: 3, to_position: 1 },
        { name: 'amount', from_position: 1, to_position: 2 },
      ],
      default_changed: [],
      identical: false,
    });

    await expect(client.datasets.schemaVersion(datasetId, 3)).rejects.toMatchObject({
      status: 404,
      errorCode: 'DATASET_SCHEMA_NOT_FOUND',
    });
    await expect(client.datasets.diffSchemaVersions(datasetId, 1, 9)).rejects.toBeInstanceOf(NotFoundError);
    expect(() => client.datasets.schemaVersion(datasetId, 0)).toThrow(TypeError);
    expect(() => client.datasets.diffSchemaVersions(datasetId, 1.5, 2)).toThrow(TypeError);
    await expect(
      client.datasets.publishSchemaVersion(datasetId, {
        columns: [{ name: 'x', type: { data_type: 'nope' } }],
      }),
    ).rejects.toMatchObject({ errorCode: 'DATA_TYPE_NOT_FOUND' });
  });

  it('tags PII on a field and reads it back: current, current of the dataset, the version', async () => {
    const version = await client.datasets.schemaVersion(datasetId, 1);
    const email = version.columns.find((c) => c.name === 'email')!;
    expect(email.pii_tags).toBeNull();
    await expect(client.fieldClassifications.current(email.field_id)).rejects.toMatchObject({
      status: 404,
      errorCode: 'FIELD_CLASSIFICATION_NOT_FOUND',
    });

    const first = await client.fieldClassifications.create({
      field_id: email.field_id,
      pii_tags: ['contact'],
    });
    const tagged = await client.fieldClassifications.create({
      field_id: email.field_id,
      pii_tags: ['email', 'contact'],
      reason: 'customer e-mail address',
    });
    expect(await client.fieldClassifications.get(first.id)).toEqual(first);
    expect(await client.fieldClassifications.current(email.field_id)).toEqual(tagged);
    expect(await client.fieldClassifications.currentOfDataset(datasetId)).toEqual([tagged]);
    const history = await client.fieldClassifications.list({ field_id: email.field_id });
    expect(history.items.map((c) => c.id)).toEqual([tagged.id, first.id]); // newest first

    for (const num of [1, 2]) {
      const columns = (await client.datasets.schemaVersion(datasetId, num)).columns;
      expect(columns.find((c) => c.name === 'email')!.pii_tags).toEqual(tagged.pii_tags);
      expect(columns.find((c) => c.name === 'id')!.pii_tags).toBeNull();
    }
    expect('update' in client.fieldClassifications).toBe(false);
    expect('delete' in client.fieldClassifications).toBe(false);
    // The tags in use, for a tagging form; a free-text tag is refused with its likely form.
    const tags = await client.fieldClassifications.tags();
    expect(tags.in_use.filter((t) => t.tag === 'contact')[0]?.field_count).toBeGreaterThanOrEqual(1);
    expect(tags.suggested).toContain('email');
    await expect(
      client.fieldClassifications.create({ field_id: email.field_id, pii_tags: ['E-Mail Address'] }),
    ).rejects.toMatchObject({
      status: 422,
      errorCode: 'PII_TAG_INVALID',
      details: { invalid: [{ tag: 'E-Mail Address', suggestion: 'e_mail_address' }] },
    });
  });

  it('fields: tree, children, create, createMany, update, delete', async () => {
    const roots = await client.fields.tree(datasetId);
    expect(roots.map((f) => f.name).sort()).toEqual(['amount', 'created_at', 'email', 'id', 'tags']);
    const address = await client.fields.create({ dataset_id: datasetId, name: 'address', origin: 'tech' });
    const children = await client.fields.createMany([
      { dataset_id: datasetId, parent_id: address.id, name: 'city', path: 'address.city' },
      { dataset_id: datasetId, parent_id: address.id, name: 'zip', path: 'address.zip' },
    ]);
    expect((await client.fields.children(address.id)).map((f) => f.name)).toEqual(['city', 'zip']);
    const tree = await client.fields.tree(datasetId);
    expect(tree.find((f) => f.id === address.id)!.children.map((f) => f.path)).toEqual([
      'address.city',
      'address.zip',
    ]);

    const zip = children[1]!;
    const renamed = await client.fields.update(zip.id, { name: 'postcode', row_version: zip.row_version });
    expect(renamed).toMatchObject({ name: 'postcode', parent_id: address.id });
    await client.fields.delete(zip.id);
    expect((await client.fields.children(address.id)).map((f) => f.name)).toEqual(['city']);
    await expect(client.fields.tree(randomUUID())).rejects.toMatchObject({ errorCode: 'DATASET_NOT_FOUND' });
  });

  it('the granular routes: dataset schemas and field bindings', async () => {
    const dataset = await rdbmsDataset();
    const header = await client.datasetSchemas.create({ dataset_id: dataset.id, schema: { source: 'sdk' } });
    expect(header).toMatchObject({ version_num: 1, schema_: { source: 'sdk' } });
    const edited = await client.datasetSchemas.update(header.id, {
      note: 'draft',
      row_version: header.row_version,
    });
    expect(edited.note).toBe('draft');

    const [id, name] = await client.fields.createMany([
      { dataset_id: dataset.id, name: 'id' },
      { dataset_id: dataset.id, name: 'name' },
    ]);
    const [bigint, text] = await client.typeInstances.createMany([
      { data_type_id: await dataTypeId(postgres.id, 'bigint') },
      { data_type_id: await dataTypeId(postgres.id, 'text') },
    ]);
    // A version's bindings come in one batch: from then on the version is immutable.
    const [binding, second] = await client.fieldBindings.createMany([
      {
        field_id: id!.id,
        dataset_schema_id: header.id,
        position: 0,
        is_nullable: false,
        type_instance_id: bigint!.id,
      },
      { field_id: name!.id, dataset_schema_id: header.id, position: 1, type_instance_id: text!.id },
    ]);
    expect(second).toMatchObject({ is_nullable: true, position: 1 });
    const bindings = await client.fieldBindings.list({ dataset_schema_id: header.id });
    expect(bindings.items.map((b) => b.id)).toEqual([binding!.id, second!.id]);
    const version = await client.datasets.schemaVersion(dataset.id, 1);
    expect(version.columns.map((c) => `${c.name} ${c.rendered_type}`)).toEqual(['id bigint', 'name text']);

    const immutable = { status: 409, errorCode: 'DATASET_SCHEMA_IMMUTABLE' };
    await expect(
      client.fieldBindings.update(binding!.id, { is_nullable: true, row_version: binding!.row_version }),
    ).rejects.toMatchObject(immutable);
    await expect(
      client.datasetSchemas.update(header.id, { note: 'late', row_version: edited.row_version }),
    ).rejects.toMatchObject(immutable);

    // Version 2, bound one binding at a time; a header without bindings can be deleted.
    const v2 = await client.datasetSchemas.create({ dataset_id: dataset.id });
    expect(v2.version_num).toBe(2);
    const only = await client.fieldBindings.create({
      field_id: id!.id,
      dataset_schema_id: v2.id,
      position: 0,
      type_instance_id: bigint!.id,
    });
    expect(only).toMatchObject({ dataset_schema_id: v2.id, is_nullable: true });
    await expect(
      client.fieldBindings.create({
        field_id: name!.id,
        dataset_schema_id: v2.id,
        position: 1,
        type_instance_id: text!.id,
      }),
    ).rejects.toMatchObject(immutable);
    expect((await client.datasets.schemaVersion(dataset.id, 2)).columns.map((c) => c.name)).toEqual(['id']);

    const spare = await client.datasetSchemas.create({ dataset_id: dataset.id });
    expect(spare.version_num).toBe(3);
    expect((await client.datasetSchemas.delete(spare.id)).id).toBe(spare.id);
    await expect(client.datasetSchemas.get(spare.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('crawl runs', () => {
  it('create, get, list, update (finish); never deleted', async () => {
    const run = await client.crawlRuns.create({ system_id: systemId, config: { schemas: ['public'] } });
    expect(run).toMatchObject({ status: 'running', finished_at: null, config: { schemas: ['public'] } });
    expect(await client.crawlRuns.get(run.id)).toEqual(run);
    const running = await client.crawlRuns.list({ system_id: systemId, status: 'running' });
    expect(running.items.map((r) => r.id)).toContain(run.id);

    const done = await client.crawlRuns.update(run.id, {
      status: 'completed',
      summary: { tables: 3 },
      row_version: run.row_version,
    });
    expect(done).toMatchObject({ status: 'completed', summary: { tables: 3 } });
    expect(done.finished_at).not.toBeNull();
    await expect(
      client.crawlRuns.update(run.id, { status: 'failed', row_version: done.row_version }),
    ).rejects.toMatchObject({ errorCode: 'CRAWL_RUN_INVALID_TRANSITION' });
    expect('delete' in client.crawlRuns).toBe(false);
  });

  it('lists the runs whose report names a dataset (dataset_id, dataset_id__in), newest first', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const finish = async (diff_payload: Record<string, unknown>, hoursAgo: number) => {
      const started_at = new Date(Date.now() - hoursAgo * 3_600_000).toISOString();
      const run = await client.crawlRuns.create({ system_id: systemId, started_at });
      return client.crawlRuns.update(run.id, {
        status: 'completed',
        diff_payload,
        row_version: run.row_version,
      });
    };
    const crawl = await finish({ datasets: [{ object_name: 'public.a', dataset_id: a }] }, 3);
    const apply = await finish(
      { applied: [{ object_name: 'public.a', dataset_id: a, action: 'publish' }] },
      2,
    );
    const other = await finish({ datasets: [{ object_name: 'public.b', dataset_id: b }] }, 1);

    const latest = await client.crawlRuns.list({ dataset_id: a, size: 1 });
    expect(latest.items).toEqual([apply]);
    expect(latest.total).toBe(2);
    expect(
      (await client.crawlRuns.list({ dataset_id: a, sort: 'started_at' })).items.map((r) => r.id),
    ).toEqual([crawl.id, apply.id]);
    const either = await client.crawlRuns.list({ dataset_id__in: [a, b] });
    expect(either.items.map((r) => r.id)).toEqual([other.id, apply.id, crawl.id]);
    await expect(client.crawlRuns.list({ dataset_id: 'not-a-uuid' })).rejects.toMatchObject({
      errorCode: 'VALIDATION_ERROR',
      status: 422,
    });
  });
});
