// The inspection summary of a file source: datasets are tables; files have no keys, indexes or catalog queries.
import type { InspectedTable, InspectionSummary } from '../../model.js';

export function summarise(tables: InspectedTable[]): InspectionSummary {
  return {
    schemas: 1,
    tables: { table: tables.length, view: 0, materialized_view: 0, partitioned_table: 0, foreign_table: 0 },
    partitions: 0,
    columns: tables.reduce((sum, table) => sum + table.columns.length, 0),
    primary_keys: 0,
    unique_constraints: 0,
    foreign_keys: 0,
    indexes: 0,
    check_constraints: 0,
    unmapped_columns: tables.reduce(
      (sum, table) => sum + table.columns.filter((column) => column.type === null).length,
      0,
    ),
    catalog_queries: 0,
  };
}
