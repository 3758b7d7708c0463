// Type-checked against the built declarations (dist/*.d.ts) by test/consumer.test.ts, as a consumer's
// code would be: the package imported by name, strict mode.
import {
  AideClient,
  ConflictError,
  NotFoundError,
  type AideClientOptions,
  type CreateDataset,
  type CreateSystem,
  type Dataset,
  type ErrorCode,
  type PublishColumn,
  type PublishResult,
  type ResolveCastResult,
  type SchemaVersionDiff,
  type System,
  type TypeSpec,
  type CreateDatasetOf,
  type DatasetOf,
  type ListParams,
  type Page,
  type RequestOptions,
} from '@aide/sdk';

export async function consumer(options: AideClientOptions, body: CreateSystem): Promise<string[]> {
  const client = new AideClient(options);
  const params: ListParams = { size: 10, sort: ['-created_at'], flavor_id__in: ['a', 'b'] };
  const request: RequestOptions = { timeoutMs: 1000, idempotencyKey: 'k' };
  const page: Page<System> = await client.systems.list(params, request);
  const created: System[] = await client.systems.createMany([body], {
    onChunk: (items) => void items.length,
  });
  const restored: System = await client.systems.restore(created[0].id);
  // @ts-expect-error an update names the row_version it is based on, in the body or as ifMatch
  await client.systems.update(restored.id, { name: 'x' });
  await client.systems.update(restored.id, { name: 'x' }, { ifMatch: restored.row_version });
  try {
    await client.systems.update(restored.id, { name: 'x', row_version: restored.row_version });
  } catch (error) {
    const code: ErrorCode | undefined =
      error instanceof ConflictError && error.hasKnownCode() ? error.errorCode : undefined;
    if (code === 'VERSION_CONFLICT') return [];
  }
  const codes: string[] = page.items.map((s) => s.code);
  for await (const system of client.systems.list()) codes.push(system.code);
  // @ts-expect-error system kinds have no batch route
  await client.systemKinds.createMany([]);
  // @ts-expect-error the create body is typed
  await client.systems.create({ code: 'x' });
  await client.close();
  return codes;
}

// Datasets are typed by their kind: the body of create/update, and what they return. A topic lives on
// a Kafka system, a table on an rdbms one.
export async function catalogue(
  client: AideClient,
  systemId: string,
  kafkaSystemId: string,
  body: CreateDataset,
): Promise<string[]> {
  const topic: DatasetOf<'kafka'> = await client.datasets.create({
    kind: 'kafka',
    system_id: kafkaSystemId,
    object_name: 'orders',
    topic: 'orders.v1',
    format: 'avro',
    partitions: 12,
    retention_ms: 604_800_000,
    key_columns: ['id'],
  });
  // Unknown to a schema registry (ADR 0045): null until filled in.
  const partitions: number | null = topic.partitions;
  // @ts-expect-error partitions may be null
  const notNull: number = topic.partitions;
  void notNull;
  const flavorId: string | null = topic.flavor_id;
  void flavorId;
  const table = await client.datasets.create({
    kind: 'rdbms',
    system_id: systemId,
    object_name: 'public.orders',
    schema_name: 'public',
    table_name: 'orders',
  });
  const tableName: string = table.table_name;
  // @ts-expect-error a table is not a topic
  void table.topic;
  // @ts-expect-error the kafka attributes are required
  await client.datasets.create({ kind: 'kafka', system_id: kafkaSystemId, object_name: 'x', topic: 't' });
  // @ts-expect-error an rdbms attribute on a kafka dataset
  await client.datasets.create({ ...kafkaBody(kafkaSystemId), table_name: 'orders' });
  // @ts-expect-error not a dataset kind
  await client.datasets.create({ kind: 'mongo', system_id: systemId, object_name: 'x' });
  const widened: DatasetOf<'kafka'> = await client.datasets.update(topic.id, {
    kind: 'kafka',
    partitions: 24,
    row_version: topic.row_version,
  });
  // @ts-expect-error update names the kind
  await client.datasets.update(topic.id, { partitions: 24, row_version: 2 });
  // @ts-expect-error update names the row_version (or passes ifMatch)
  await client.datasets.update(topic.id, { kind: 'kafka', partitions: 24 });
  const byEtag: DatasetOf<'kafka'> = await client.datasets.update(
    topic.id,
    { kind: 'kafka', partitions: 48 },
    { ifMatch: widened.row_version },
  );
  // A body whose kind is only known at run time gives the union back.
  const any: Dataset = await client.datasets.create(body);
  const read: Dataset = await client.datasets.get(any.id);
  const attributes: string[] = read.kind === 'hive' ? [read.db_name, read.table_name] : [];

  const published: PublishResult = await client.datasets.publishSchemaVersion(
    table.id,
    {
      columns: [
        { name: 'id', nullable: false, type: { data_type: 'bigint' } },
        { name: 'amount', type: { data_type: 'numeric', params: { precision: 12, scale: 2 } } },
        {
          name: 'tags',
          type: { data_type: 'array', children: [{ slot: 'item', type: { data_type: 'text' } }] },
        },
      ],
    },
    { idempotencyKey: 'publish-1' },
  );
  const column: PublishColumn = { name: 'id', type: { data_type: 'bigint' } };
  // Null for a column whose native type has no data type in the flavor (kept as `native_type`).
  const spec: TypeSpec | null = column.type;
  // @ts-expect-error a column's type is a TypeSpec, not anything
  await client.datasets.publishSchemaVersion(table.id, { columns: [{ name: 'id', type: 42 }] });
  const diff: SchemaVersionDiff = await client.datasets.diffSchemaVersions(table.id, 1, 2);
  const cast: ResolveCastResult = await client.castRules.resolve({
    // Published from a TypeSpec above, so the column has a type instance.
    type_instance_id: published.version.columns[1].type_instance_id!,
    target_flavor: 'iceberg_v2',
  });
  // @ts-expect-error a type instance or a data type: not neither
  await client.castRules.resolve({ target_flavor: 'iceberg_v2' });
  try {
    await client.fieldClassifications.current(published.version.columns[0].field_id);
  } catch (error) {
    if (!(error instanceof NotFoundError && error.errorCode === 'FIELD_CLASSIFICATION_NOT_FOUND'))
      throw error;
  }
  // @ts-expect-error classifications are append-only
  await client.fieldClassifications.update(topic.id, {});
  return [
    String(partitions),
    tableName,
    String(widened.partitions),
    String(byEtag.partitions),
    spec?.data_type ?? 'untyped',
    ...attributes,
    cast.rendered,
    ...diff.added.map((c) => c.name),
  ];
}

function kafkaBody(systemId: string): CreateDatasetOf<'kafka'> {
  return {
    kind: 'kafka',
    system_id: systemId,
    object_name: 'orders',
    topic: 'orders.v1',
    format: 'avro',
    partitions: 1,
    retention_ms: -1,
    key_columns: [],
  };
}
