// A lakehouse location (a folder, bucket prefix or SFTP path holding Delta and Iceberg tables) read
// from table metadata alone: each table becomes a `hive` dataset typed in its format's flavor —
// Delta in `spark_sql`, Iceberg in `iceberg_v2` (ADR 0047). A table whose metadata cannot be read is a
// problem of the inspection; the others are still read.
import type { CheckConstraint, InspectedColumn, InspectedDatabase, InspectedTable } from '../../model.js';
import { emptyColumn, emptyTable } from '../../inspect/assemble.js';
import { parseFilters, tableSelected } from '../../inspect/filters.js';
import { TypeLog } from '../../normalise/type-log.js';
import { throwIfInterrupted } from '../../errors.js';
import type { FileStore, StoredFile } from '../files/file-store.js';
import type { SourceInspectOptions } from '../source-driver.js';
import { sourceInspection } from '../inspection.js';
import { readDeltaSnapshot, type DeltaSnapshot } from './delta-log.js';
import { findTables, tableName, type FoundTable } from './find-tables.js';
import { readIcebergTable, partitionText, type IcebergTable } from './iceberg-metadata.js';
import { icebergTypeText, mapIcebergType } from './iceberg-types.js';
import { mapSparkField, sparkTypeText, type SparkField } from './spark-types.js';

export const LAKEHOUSE_FLAVORS = ['spark_sql', 'iceberg_v2'] as const;
const FLAVOR_OF_FORMAT = { delta: 'spark_sql', iceberg: 'iceberg_v2' } as const;

export interface LakehouseLocation {
  /** The location as a URL without secrets (`s3://bucket/warehouse`): `catalog_uri` of its datasets. */
  display: string;
  /** Its last path segment: the name of a table that is the location itself. */
  name: string;
}

export async function inspectLakehouse(
  store: FileStore,
  location: LakehouseLocation,
  options: SourceInspectOptions,
): Promise<InspectedDatabase> {
  const filters = parseFilters(options.filters);
  const files: StoredFile[] = [];
  for await (const file of store.list(options.signal)) files.push(file);
  const types = new TypeLog();
  const tables: InspectedTable[] = [];
  const problems: { path: string; reason: string }[] = [];
  let reads = 0;
  for (const found of findTables(files)) {
    const { db, table } = tableName(found.root, location.name);
    if (!tableSelected(filters, db, table)) continue;
    throwIfInterrupted(options.signal);
    const before = store.bytesRead;
    try {
      tables.push(
        found.format === 'delta'
          ? deltaTable(
              await readDeltaSnapshot(store, found.files, options.signal),
              found,
              db,
              table,
              location,
              types,
            )
          : icebergTable(
              await readIcebergTable(store, found.files, options.signal),
              found,
              db,
              table,
              location,
              types,
            ),
      );
    } catch (error) {
      if (options.signal?.aborted) throw error;
      problems.push({ path: found.root === '' ? '.' : found.root, reason: (error as Error).message });
    }
    reads += store.bytesRead > before ? 1 : 0;
  }
  const counts = { spark_sql: 0, iceberg_v2: 0 };
  for (const t of tables) counts[t.placement?.flavor as keyof typeof counts]++;
  return sourceInspection({
    dialect: 'lakehouse',
    flavor: counts.iceberg_v2 > counts.spark_sql ? 'iceberg_v2' : 'spark_sql',
    server: { product: 'Lakehouse', version: '' },
    database: location.display,
    filters: options.filters,
    tables,
    types,
    problems,
    reads,
  });
}

function deltaTable(
  snapshot: DeltaSnapshot,
  found: FoundTable,
  db: string,
  table: string,
  location: LakehouseLocation,
  types: TypeLog,
): InspectedTable {
  const { metadata } = snapshot;
  const columns = metadata.fields.map((field, index) => deltaColumn(field, index, types));
  const checks: CheckConstraint[] = Object.entries(metadata.configuration)
    .filter(([key]) => key.startsWith('delta.constraints.'))
    .map(([key, expression]) => ({ name: key.slice('delta.constraints.'.length), expression }));
  return {
    ...emptyTable(db, table, 'table', metadata.description),
    columns,
    check_constraints: checks,
    placement: placement(found, db, table, location, {
      file_format: 'delta',
      partition_cols: metadata.partitionColumns,
      tblproperties: metadata.configuration,
    }),
  };
}

function deltaColumn(field: SparkField, index: number, types: TypeLog): InspectedColumn {
  const meta = field.metadata ?? {};
  const declared = meta['__CHAR_VARCHAR_TYPE_STRING'];
  const nativeType = typeof declared === 'string' ? declared : sparkTypeText(field.type);
  const identity =
    meta['delta.identity.start'] === undefined
      ? null
      : meta['delta.identity.allowExplicitInsert'] === true
        ? ('by_default' as const)
        : ('always' as const);
  const generated = meta['delta.generationExpression'];
  return {
    ...emptyColumn(field.name, index + 1, nativeType),
    type: types.record(nativeType, mapSparkField(field)),
    nullable: field.nullable ?? true,
    default: typeof meta.CURRENT_DEFAULT === 'string' ? meta.CURRENT_DEFAULT : null,
    comment: typeof meta.comment === 'string' ? meta.comment : null,
    identity,
    generated: typeof generated === 'string' ? { expression: generated, stored: true } : null,
  };
}

function icebergTable(
  metadata: IcebergTable,
  found: FoundTable,
  db: string,
  table: string,
  location: LakehouseLocation,
  types: TypeLog,
): InspectedTable {
  const columns = metadata.fields.map((field, index): InspectedColumn => {
    const nativeType = icebergTypeText(field.type);
    const mapped = mapIcebergType(field.type);
    const writeDefault = field['write-default'];
    return {
      ...emptyColumn(field.name, index + 1, nativeType),
      type: types.record(nativeType, mapped === null ? null : { type: mapped }),
      nullable: !field.required,
      default: writeDefault === undefined ? null : JSON.stringify(writeDefault),
      comment: field.doc ?? null,
    };
  });
  return {
    ...emptyTable(db, table, 'table', metadata.properties.comment ?? null),
    columns,
    primary_key:
      metadata.identifierFields.length > 0 ? { name: null, columns: metadata.identifierFields } : null,
    placement: placement(found, db, table, location, {
      file_format: 'iceberg',
      partition_cols: metadata.partitioning.map(partitionText),
      tblproperties: metadata.properties,
    }),
  };
}

function placement(
  found: FoundTable,
  db: string,
  table: string,
  location: LakehouseLocation,
  attributes: { file_format: string; partition_cols: string[]; tblproperties: Record<string, string> },
): NonNullable<InspectedTable['placement']> {
  return {
    kind: 'hive',
    object_name: `${db}.${table}`,
    flavor: FLAVOR_OF_FORMAT[found.format],
    attributes: {
      catalog_uri: location.display,
      db_name: db,
      table_name: table,
      is_external: true,
      location:
        found.root === '' ? location.display : `${location.display.replace(/\/+$/, '')}/${found.root}`,
      ...attributes,
    },
  };
}
