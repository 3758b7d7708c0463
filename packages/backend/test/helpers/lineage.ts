// Factories of the lineage e2e tests (engines, dataset links, field links) under test/e2e/lineage.
import type { DatasetKind } from '@aide/schemas';
import { API, createDataset, createSystemFor, flavorByCode, type Row, seedReference } from './catalogue.js';
import { createSystem, ok, unique } from './factories.js';
import { createTestContext, type TestContext } from './test-app.js';

/** A valid create body of each engine kind. */
export function engineBody(kind: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const common = { kind, code: unique(`eng_${kind}`), name: `Engine ${kind}` };
  switch (kind) {
    case 'debezium':
      return { ...common, version: '2.x', envelope_template: { after_path: 'after' }, ...overrides };
    case 'ogg':
      return { ...common, version: '21c', envelope_template: { after_path: 'after' }, ...overrides };
    case 'spark':
      return { ...common, version: '3.x', runtime_opts: { executors: 4 }, ...overrides };
    default:
      return { ...common, version: '4.x', ...overrides };
  }
}

export async function createEngine(
  ctx: TestContext,
  kind = 'spark',
  overrides: Record<string, unknown> = {},
): Promise<Row> {
  const r = await ctx.request('POST', `${API}/engines`, {
    token: ctx.adminToken,
    body: engineBody(kind, overrides),
  });
  return ok(r, 201);
}

/** A dataset of a layer with one published schema version: its fields by name and the version's id. */
export interface VersionedDataset {
  dataset: Row;
  schemaId: string;
  fields: Map<string, string>;
}

/** A column of a publish body: `[name, data type, params?]`, nullable unless `notNull`. */
export type ColumnSpec = [string, string, Record<string, unknown>?, boolean?];

export async function publishVersion(
  ctx: TestContext,
  datasetId: string,
  columns: readonly ColumnSpec[],
): Promise<{ schemaId: string; fields: Map<string, string> }> {
  const body = {
    columns: columns.map(([name, dataType, params, notNull]) => ({
      name,
      nullable: notNull !== true,
      type: { data_type: dataType, ...(params ? { params } : {}) },
    })),
  };
  const result = ok(
    await ctx.request('POST', `${API}/datasets/${datasetId}/schema-versions`, { token: ctx.userToken, body }),
    201,
  );
  const fields = new Map<string, string>(
    result.version.columns.map((c: { name: string; field_id: string }) => [c.name, c.field_id]),
  );
  return { schemaId: result.version.dataset_schema_id, fields };
}

export async function versionedDataset(
  ctx: TestContext,
  systemId: string,
  layer: string | null,
  columns: readonly ColumnSpec[] = [
    ['id', 'integer', undefined, true],
    ['name', 'text'],
  ],
  kind: DatasetKind = 'rdbms',
): Promise<VersionedDataset> {
  // A dataset's kind must fit its system's kind: other kinds go on a system of their own kind.
  const system = kind === 'rdbms' ? systemId : await systemForKind(ctx, kind, columns);
  const dataset = await createDataset(ctx, system, kind, { layer });
  return { dataset, ...(await publishVersion(ctx, dataset.id, columns)) };
}

/** Creates a dataset link between two versioned datasets (as the regular user). */
export function linkBody(
  source: VersionedDataset,
  target: VersionedDataset,
  extra: Record<string, unknown> = {},
) {
  return {
    source_dataset_id: source.dataset.id,
    target_dataset_id: target.dataset.id,
    source_schema_id: source.schemaId,
    target_schema_id: target.schemaId,
    ...extra,
  };
}

export async function createLink(
  ctx: TestContext,
  source: VersionedDataset,
  target: VersionedDataset,
  extra: Record<string, unknown> = {},
): Promise<Row> {
  const r = await ctx.request('POST', `${API}/dataset-links`, {
    token: ctx.userToken,
    body: linkBody(source, target, extra),
  });
  return ok(r, 201);
}

const kindSystems = new WeakMap<TestContext, Map<DatasetKind, string>>();

/**
 * A system (one per test context) that holds datasets of `kind`, its flavor given the data types the
 * columns name when it lacks them (a kafka flavor, say, has none seeded).
 */
async function systemForKind(ctx: TestContext, kind: DatasetKind, columns: readonly ColumnSpec[]) {
  const systems = kindSystems.get(ctx) ?? new Map<DatasetKind, string>();
  kindSystems.set(ctx, systems);
  let systemId = systems.get(kind);
  if (!systemId) {
    const system = await createSystemFor(ctx, kind);
    systemId = system.id;
    systems.set(kind, systemId);
  }
  const system = ok(await ctx.request('GET', `${API}/systems/${systemId}`, { token: ctx.userToken }));
  for (const code of new Set(columns.map(([, dataType]) => dataType))) {
    const query = `system_flavor_id=${system.flavor_id}&code=${code}`;
    const found = ok(await ctx.request('GET', `${API}/data-types?${query}`, { token: ctx.userToken }));
    if (found.items.length > 0) continue;
    const body = { system_flavor_id: system.flavor_id, code, params_schema: {}, render_template: code };
    ok(await ctx.request('POST', `${API}/data-types`, { token: ctx.adminToken, body }), 201);
  }
  return systemId;
}

/**
 * A test context with the reference data and a postgres14 system answering to the OpenLineage
 * `namespace` (the setup of the intake's tests).
 */
export async function openLineageContext(namespace: string): Promise<{ ctx: TestContext; system: Row }> {
  const ctx = await createTestContext();
  await seedReference(ctx);
  const system = await createSystem(ctx, (await flavorByCode(ctx, 'postgres14')).id, {
    extra: { openlineage_namespace: namespace },
  });
  return { ctx, system };
}

/** A registered rdbms table `<schema>.<table>` of `systemId` with one published version of `columns`. */
export async function registeredTable(
  ctx: TestContext,
  systemId: string,
  name: string,
  columns: readonly ColumnSpec[],
): Promise<Row> {
  const [schema, table] = name.split('.') as [string, string];
  const dataset = await createDataset(ctx, systemId, 'rdbms', {
    object_name: name,
    schema_name: schema,
    table_name: table,
    layer: 'raw',
  });
  await publishVersion(ctx, dataset.id, columns);
  return dataset;
}
