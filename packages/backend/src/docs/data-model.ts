// The ER diagram of docs/AIDE_data_model.json, in ChartDB's import format (see chartdb-format.ts).
//
// Source of truth: the catalog of a migrated database, not TypeORM's entity metadata. The entities declare
// neither @Index nor relations (references are plain uuid columns) and carry no CHECK constraints; foreign
// keys, partial unique indexes, checks, defaults and exact types exist only in the migrations, which are
// what production runs. The entity metadata is used by the test instead, to check that every entity table
// and column appears in the diagram.
//
// The output is a pure function of the schema: ids are hashes of names, every list is sorted, createdAt is
// a constant, so regenerating an unchanged schema rewrites the file byte for byte.
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { DataSource } from 'typeorm';
import {
  CHARTDB_INDEX_TYPES,
  type ChartDbCustomType,
  type ChartDbDiagram,
  type ChartDbField,
  type ChartDbIndex,
  type ChartDbIndexType,
  type ChartDbRelationship,
  type ChartDbTable,
} from './chartdb-format.js';
import { toChartDbColumnType } from './column-type.js';
import { layoutTables, type Placement } from './layout.js';
import {
  CATALOG_SCHEMA,
  readCatalog,
  type Catalog,
  type CatalogColumn,
  type CatalogIndex,
  type CatalogTable,
} from './pg-catalog.js';

/** The generated file, at the repository root (the same four levels up from src/docs and dist/docs). */
export const DATA_MODEL_FILE = fileURLToPath(
  new URL('../../../../docs/AIDE_data_model.json', import.meta.url),
);

/** The first line of the data-model test's failure when the committed file differs from the schema. */
export const DATA_MODEL_STALE_MESSAGE = 'docs/AIDE_data_model.json is stale: run pnpm docs:data-model';

const DIAGRAM_NAME = 'AIDE Metastore';
const CREATED_AT = 0;
const EPOCH = new Date(CREATED_AT).toISOString();
const DEFAULT_PLACEMENT: Placement = { x: 0, y: 0, color: '#8eb7ff' };

/** A deterministic id: ChartDB only needs uniqueness (its import re-keys everything anyway). */
function stableId(...parts: string[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 24);
}

const fieldId = (table: string, column: string): string => stableId('field', CATALOG_SCHEMA, table, column);
const tableId = (table: string): string => stableId('table', CATALOG_SCHEMA, table);

// An expression key (lower(email::text)) names the columns it reads; unquoted names only need a word match.
function columnsInExpression(expression: string, columns: readonly string[]): string[] {
  const words = new Set(
    [...expression.matchAll(/"((?:[^"]|"")+)"|[A-Za-z_][A-Za-z0-9_$]*/g)].map((m) =>
      m[1] !== undefined ? m[1].replaceAll('""', '"') : m[0],
    ),
  );
  return columns.filter((c) => words.has(c));
}

/** A column is `unique` as ChartDB's import has it: the only key of a unique index, here without predicate. */
function isUniqueColumn(indexes: readonly CatalogIndex[], column: string): boolean {
  return indexes.some(
    (ix) => ix.unique && !ix.partial && ix.keys.length === 1 && ix.keys[0]?.column === column,
  );
}

function toField(
  table: string,
  column: CatalogColumn,
  indexes: readonly CatalogIndex[],
  pk: Set<string>,
): ChartDbField {
  const { type, isArray, characterMaximumLength, precision, scale } = toChartDbColumnType(column);
  const defaultValue = column.generated ? null : column.expression;
  const comments = [
    column.comment,
    column.generated ? `GENERATED ALWAYS AS (${column.expression ?? ''}) STORED` : null,
  ].filter((c): c is string => !!c);
  return {
    id: fieldId(table, column.name),
    name: column.name,
    type,
    primaryKey: pk.has(column.name),
    unique: isUniqueColumn(indexes, column.name),
    nullable: !column.notNull,
    ...(column.identity || defaultValue?.startsWith('nextval(') ? { increment: true } : {}),
    ...(isArray ? { isArray } : {}),
    createdAt: CREATED_AT,
    ...(characterMaximumLength !== undefined ? { characterMaximumLength } : {}),
    ...(precision !== undefined ? { precision } : {}),
    ...(scale !== undefined ? { scale } : {}),
    ...(defaultValue ? { default: defaultValue } : {}),
    ...(comments.length > 0 ? { comments: comments.join('\n') } : {}),
  };
}

function isChartDbIndexType(method: string): method is ChartDbIndexType {
  return (CHARTDB_INDEX_TYPES as readonly string[]).includes(method);
}

function toIndex(table: string, index: CatalogIndex, columns: readonly string[]): ChartDbIndex {
  const keyColumns = index.keys.flatMap((key) =>
    key.column !== null ? [key.column] : columnsInExpression(key.expression ?? '', columns),
  );
  return {
    id: stableId('index', CATALOG_SCHEMA, table, index.name),
    name: index.name,
    unique: index.unique,
    fieldIds: [...new Set(keyColumns)].map((c) => fieldId(table, c)),
    createdAt: CREATED_AT,
    ...(isChartDbIndexType(index.method) ? { type: index.method } : {}),
    ...(index.primary ? { isPrimaryKey: true } : {}),
  };
}

function toTable(table: CatalogTable, catalog: Catalog, placement: Placement): ChartDbTable {
  const columns = catalog.columns.filter((c) => c.table === table.name);
  const indexes = catalog.indexes.filter((ix) => ix.table === table.name);
  const checks = catalog.checks.filter((ck) => ck.table === table.name);
  const pk = new Set(indexes.filter((ix) => ix.primary).flatMap((ix) => ix.keys.map((k) => k.column ?? '')));
  const names = columns.map((c) => c.name);
  // ChartDB has no place for an index predicate or expression: the table note keeps the exact definition.
  const comments = [
    table.comment,
    ...indexes
      .filter((ix) => ix.partial || ix.keys.some((k) => k.column === null))
      .map((ix) => ix.definition),
  ].filter((c): c is string => !!c);
  return {
    id: tableId(table.name),
    name: table.name,
    schema: CATALOG_SCHEMA,
    x: placement.x,
    y: placement.y,
    fields: columns.map((c) => toField(table.name, c, indexes, pk)),
    indexes: indexes.map((ix) => toIndex(table.name, ix, names)),
    ...(checks.length > 0
      ? {
          checkConstraints: checks.map((ck) => ({
            id: stableId('check', CATALOG_SCHEMA, table.name, ck.name),
            expression: ck.expression,
            createdAt: CREATED_AT,
          })),
        }
      : {}),
    color: placement.color,
    isView: table.kind !== 'table',
    ...(table.kind === 'materialized_view' ? { isMaterializedView: true } : {}),
    createdAt: CREATED_AT,
    ...(comments.length > 0 ? { comments: comments.join('\n') } : {}),
  };
}

// ChartDB's rule (db-relationship.ts, determineCardinality): a unique column, or the whole primary key, is 'one'.
function cardinality(table: Pick<ChartDbTable, 'fields'>, field: ChartDbField): 'one' | 'many' {
  const pkSize = table.fields.filter((f) => f.primaryKey).length;
  return field.unique || (field.primaryKey && pkSize === 1) ? 'one' : 'many';
}

function toRelationships(
  catalog: Catalog,
  tables: Map<string, Pick<ChartDbTable, 'fields'>>,
): ChartDbRelationship[] {
  return catalog.foreignKeys.flatMap((fk) => {
    const source = tables.get(fk.table);
    const target = fk.refSchema === CATALOG_SCHEMA ? tables.get(fk.refTable) : undefined;
    if (!source || !target) return [];
    return fk.columns.flatMap((column, i): ChartDbRelationship[] => {
      const sourceField = source.fields.find((f) => f.name === column);
      const targetField = target.fields.find((f) => f.name === fk.refColumns[i]);
      if (!sourceField || !targetField) return [];
      return [
        {
          id: stableId('relationship', CATALOG_SCHEMA, fk.table, fk.name, column),
          name: fk.name,
          sourceSchema: CATALOG_SCHEMA,
          sourceTableId: tableId(fk.table),
          targetSchema: CATALOG_SCHEMA,
          targetTableId: tableId(fk.refTable),
          sourceFieldId: sourceField.id,
          targetFieldId: targetField.id,
          sourceCardinality: cardinality(source, sourceField),
          targetCardinality: cardinality(target, targetField),
          createdAt: CREATED_AT,
        },
      ];
    });
  });
}

/** Turns a catalog into a ChartDB diagram. Pure: the same catalog always gives the same diagram. */
export function toChartDbDiagram(catalog: Catalog): ChartDbDiagram {
  const placements = layoutTables(
    catalog.tables.map((t) => ({
      name: t.name,
      fieldCount: catalog.columns.filter((c) => c.table === t.name).length,
    })),
    catalog.foreignKeys.map((fk) => ({ from: fk.table, to: fk.refTable })),
  );
  const tables = catalog.tables.map((t) => toTable(t, catalog, placements.get(t.name) ?? DEFAULT_PLACEMENT));
  const relationships = toRelationships(catalog, new Map(tables.map((t) => [t.name, t])));
  const customTypes = catalog.enums.map((e): ChartDbCustomType => ({
    id: stableId('type', CATALOG_SCHEMA, e.name),
    schema: CATALOG_SCHEMA,
    name: e.name,
    kind: 'enum',
    values: e.values,
  }));
  return {
    id: stableId('diagram', DIAGRAM_NAME),
    name: DIAGRAM_NAME,
    databaseType: 'postgresql',
    tables,
    relationships,
    dependencies: [],
    areas: [],
    customTypes,
    createdAt: EPOCH,
    updatedAt: EPOCH,
  };
}

/** Builds the diagram from the database `dataSource` points at, which must be fully migrated. */
export async function buildDataModel(dataSource: DataSource): Promise<ChartDbDiagram> {
  return toChartDbDiagram(await readCatalog(dataSource));
}

/** The file's exact text: 2-space JSON and a final newline. */
export function serializeDataModel(diagram: ChartDbDiagram): string {
  return `${JSON.stringify(diagram, null, 2)}\n`;
}
