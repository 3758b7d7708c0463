// Reference data and factories of the catalogue (data types, datasets, fields, schema versions) for
// the e2e tests under test/e2e/catalogue. The test databases are clones of a migrated, unseeded
// template: `seedReference` loads packages/backend/seeds/*.yaml into the context's database.
import { DATASET_KIND_SYSTEM_KINDS, type DatasetKind } from '@aide/schemas';
import { seedDirectory, type SeedReport } from '../../src/seeds/type-system.seeder.js';
import { createFlavor, createKind, createSystem, ok, unique } from './factories.js';
import type { TestContext, TestResponse } from './test-app.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Row = Record<string, any> & { id: string; row_version: number };

export const API = '/api/v1';

/** Loads the shipped reference data (kinds, flavors, data types, cast rules) into the context's database. */
export function seedReference(ctx: TestContext): Promise<SeedReport[]> {
  return seedDirectory(ctx.dataSource);
}

/** Every page of a collection (size 100), for reads of reference data. */
export async function listAll(ctx: TestContext, path: string, query = ''): Promise<Row[]> {
  const items: Row[] = [];
  for (let page = 1; ; page++) {
    const sep = query ? '&' : '';
    const body = ok(
      await ctx.request('GET', `${API}/${path}?${query}${sep}page=${page}&size=100`, {
        token: ctx.userToken,
      }),
    );
    items.push(...body.items);
    if (page >= body.pages) return items;
  }
}

export async function flavorByCode(ctx: TestContext, code: string): Promise<Row> {
  const body = ok(await ctx.request('GET', `${API}/system-flavors?code=${code}`, { token: ctx.userToken }));
  if (body.items.length !== 1) throw new Error(`flavor ${code} not found (seeded?)`);
  return body.items[0];
}

/** The active data types of a flavor, by code. */
export async function dataTypesOf(ctx: TestContext, flavorCode: string): Promise<Map<string, Row>> {
  const flavor = await flavorByCode(ctx, flavorCode);
  const rows = await listAll(ctx, 'data-types', `system_flavor_id=${flavor.id}`);
  return new Map(rows.map((r) => [r.code as string, r]));
}

export async function dataTypeOf(ctx: TestContext, flavorCode: string, code: string): Promise<Row> {
  const type = (await dataTypesOf(ctx, flavorCode)).get(code);
  if (!type) throw new Error(`data type ${flavorCode}.${code} not found`);
  return type;
}

/** A system on the seeded postgres14 flavor, created by the regular user. */
export async function createPgSystem(ctx: TestContext): Promise<Row> {
  return createSystem(ctx, (await flavorByCode(ctx, 'postgres14')).id);
}

/**
 * A flavor whose system kind holds datasets of `kind` (DATASET_KIND_SYSTEM_KINDS): the system kind of
 * that code is found (seeded: rdbms, hive) or created, and its first flavor by code taken or created.
 */
export async function flavorFor(ctx: TestContext, kind: DatasetKind): Promise<Row> {
  const code = DATASET_KIND_SYSTEM_KINDS[kind][0];
  const kinds = ok(await ctx.request('GET', `${API}/system-kinds?code=${code}`, { token: ctx.userToken }));
  const systemKind: Row = kinds.items[0] ?? (await createKind(ctx, { code, name: `${code} systems` }));
  const flavors = ok(
    await ctx.request('GET', `${API}/system-flavors?kind_id=${systemKind.id}&sort=code&size=1`, {
      token: ctx.userToken,
    }),
  );
  return flavors.items[0] ?? (await createFlavor(ctx, systemKind.id));
}

/** A new system that can hold datasets of `kind`. */
export async function createSystemFor(ctx: TestContext, kind: DatasetKind): Promise<Row> {
  return createSystem(ctx, (await flavorFor(ctx, kind)).id);
}

/** A valid create body of each dataset kind (kind attributes included). */
export function datasetBody(
  kind: DatasetKind,
  systemId: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  const object_name = unique(`ds_${kind}`);
  const common = { system_id: systemId, object_name, layer: 'raw', extra: { owner: 'team-a' } };
  switch (kind) {
    case 'rdbms':
      return {
        kind,
        ...common,
        schema_name: 'public',
        table_name: object_name,
        is_view: false,
        pk_columns: ['id'],
        ...overrides,
      };
    case 'kafka':
      return {
        kind,
        ...common,
        topic: `topic.${object_name}`,
        format: 'avro',
        partitions: 6,
        retention_ms: 604_800_000,
        key_columns: ['id'],
        ...overrides,
      };
    case 'storage':
      return {
        kind,
        ...common,
        path: `s3://bucket/${object_name}/`,
        file_format: 'parquet',
        compression: 'snappy',
        partition_by: ['dt'],
        ...overrides,
      };
    case 'sftp':
      return {
        kind,
        ...common,
        path: `/in/${object_name}`,
        file_format: 'csv',
        compression: null,
        archive: '/archive',
        ...overrides,
      };
    case 'hive':
      return {
        kind,
        ...common,
        catalog_uri: 'thrift://hms:9083',
        db_name: 'lake',
        table_name: object_name,
        is_external: true,
        file_format: 'iceberg',
        partition_cols: ['dt'],
        tblproperties: { 'format-version': '2' },
        ...overrides,
      };
  }
}

export const DATASET_KINDS: DatasetKind[] = ['rdbms', 'kafka', 'storage', 'sftp', 'hive'];

export async function createDataset(
  ctx: TestContext,
  systemId: string,
  kind: DatasetKind = 'rdbms',
  overrides: Record<string, unknown> = {},
): Promise<Row> {
  const r = await ctx.request('POST', `${API}/datasets`, {
    token: ctx.userToken,
    body: datasetBody(kind, systemId, overrides),
  });
  return ok(r, 201);
}

export async function createField(
  ctx: TestContext,
  datasetId: string,
  overrides: Record<string, unknown> = {},
): Promise<Row> {
  const r = await ctx.request('POST', `${API}/fields`, {
    token: ctx.userToken,
    body: { dataset_id: datasetId, name: unique('col'), ...overrides },
  });
  return ok(r, 201);
}

/** A column of a publish body. */
export function column(
  name: string,
  dataType: string,
  params?: Record<string, unknown> | null,
  nullable = true,
) {
  return { name, nullable, type: { data_type: dataType, ...(params !== undefined ? { params } : {}) } };
}

export function publish(
  ctx: TestContext,
  datasetId: string,
  body: Record<string, unknown>,
  token = ctx.userToken,
): Promise<TestResponse> {
  return ctx.request('POST', `${API}/datasets/${datasetId}/schema-versions`, { token, body });
}

/**
 * Counts the SQL statements the server sends to PostgreSQL between `start()` and `stop()`: every
 * client of TypeORM's pg Pool gets its `query` wrapped when it is checked out (TypeORM's query
 * runners and the prepared-statement fast path both go through the pool).
 */
export function sqlCounter(ctx: TestContext) {
  const pool = (
    ctx.dataSource.driver as unknown as { master: { on(event: string, fn: (client: unknown) => void): void } }
  ).master;
  const state = { on: false, statements: [] as string[] };
  const wrapped = new WeakSet<object>();
  pool.on('acquire', (client) => {
    const c = client as { query: (...args: unknown[]) => unknown };
    if (wrapped.has(c)) return;
    wrapped.add(c);
    const original = c.query.bind(c);
    c.query = (...args: unknown[]) => {
      if (state.on) {
        const first = args[0] as string | { text?: string };
        state.statements.push(typeof first === 'string' ? first : (first?.text ?? '?'));
      }
      return original(...args);
    };
  });
  return {
    start() {
      state.statements = [];
      state.on = true;
    },
    stop(): string[] {
      state.on = false;
      return state.statements;
    },
  };
}
