// The inspection a non-database source returns: the versioned header, its tables sorted, the type log's
// unmapped/approximate lists, its problems and the summary, assembled the same way for every source.
import {
  INSPECTION_FORMAT,
  INSPECTION_FORMAT_VERSION,
  type InspectedDatabase,
  type InspectedTable,
  type InspectionFilters,
  type InspectionSummary,
  type SourceProblem,
  type UnmappedType,
} from '../model.js';
import { compareText, type TypeLog } from '../normalise/type-log.js';

export interface SourceInspection {
  dialect: string;
  flavor: string;
  server: { product: string; version: string };
  database: string;
  filters: InspectionFilters;
  tables: InspectedTable[];
  /** The mappings recorded; without one, the unmapped types are counted from the columns. */
  types?: TypeLog;
  problems: SourceProblem[];
  /** Requests made to the source (files read, HTTP calls): the summary's `catalog_queries`. */
  reads: number;
}

export function sourceInspection(source: SourceInspection): InspectedDatabase {
  // Every placed dataset names its flavor: the system's may be another of the driver's flavors.
  for (const table of source.tables) {
    if (table.placement !== undefined) table.placement.flavor ??= source.flavor;
  }
  const tables = [...source.tables].sort(
    (a, b) => compareText(a.schema, b.schema) || compareText(a.name, b.name),
  );
  const schemas = [...new Set(tables.map((t) => t.schema))].sort(compareText);
  return {
    format: INSPECTION_FORMAT,
    format_version: INSPECTION_FORMAT_VERSION,
    dialect: source.dialect,
    flavor: source.flavor,
    server: source.server,
    database: source.database,
    filters: source.filters,
    schemas,
    tables,
    unmapped_types: source.types?.unmappedTypes() ?? unmappedOf(tables),
    approximate_types: source.types?.approximateTypes() ?? [],
    problems: [...source.problems].sort((a, b) => compareText(a.path, b.path)),
    summary: summarise(schemas.length, tables, source.reads),
  };
}

/** The native types of the columns without a type, with their counts. */
function unmappedOf(tables: readonly InspectedTable[]): UnmappedType[] {
  const counts = new Map<string, number>();
  for (const column of tables.flatMap((t) => t.columns)) {
    if (column.type === null) counts.set(column.native_type, (counts.get(column.native_type) ?? 0) + 1);
  }
  return [...counts]
    .map(([native_type, columns]) => ({ native_type, columns }))
    .sort((a, b) => compareText(a.native_type, b.native_type));
}

export function summarise(schemas: number, tables: InspectedTable[], queries: number): InspectionSummary {
  const summary: InspectionSummary = {
    schemas,
    tables: { table: 0, view: 0, materialized_view: 0, partitioned_table: 0, foreign_table: 0 },
    partitions: 0,
    columns: 0,
    primary_keys: 0,
    unique_constraints: 0,
    foreign_keys: 0,
    indexes: 0,
    check_constraints: 0,
    unmapped_columns: 0,
    catalog_queries: queries,
  };
  for (const table of tables) {
    summary.tables[table.kind]++;
    summary.partitions += table.partitions.length;
    summary.columns += table.columns.length;
    summary.primary_keys += table.primary_key === null ? 0 : 1;
    summary.unique_constraints += table.unique_constraints.length;
    summary.foreign_keys += table.foreign_keys.length;
    summary.indexes += table.indexes.length;
    summary.check_constraints += table.check_constraints.length;
    summary.unmapped_columns += table.columns.filter((c) => c.type === null).length;
  }
  return summary;
}
