// `inspect`'s engine: URL → connection → the dialect's catalog queries → the versioned model.
import { withCatalog } from '../connection/catalog.js';
import { parseConnectionUrl } from '../connection/url.js';
import {
  FLAVOR_OF_DIALECT,
  INSPECTION_FORMAT,
  INSPECTION_FORMAT_VERSION,
  type Dialect,
  type InspectedDatabase,
  type InspectedTable,
  type InspectionFilters,
  type InspectionSummary,
} from '../model.js';
import { compareText, TypeLog } from '../normalise/type-log.js';
import type { InspectDialect } from './dialect.js';
import { parseFilters } from './filters.js';

/** Each dialect's module, imported when a URL of that dialect is inspected. */
const DIALECTS: Record<Dialect, () => Promise<InspectDialect>> = {
  postgresql: async () => (await import('./postgres.js')).inspectPostgres,
  mysql: async () => (await import('./mysql.js')).inspectMysql,
  sqlite: async () => (await import('./sqlite.js')).inspectSqlite,
};

export interface InspectOptions {
  connectionUrl: string;
  filters?: Partial<InspectionFilters>;
  /** Called with every statement sent to a database server (tests count them). */
  onStatement?: (sql: string) => void;
  /** Stops the inspection: the statement in flight is cancelled and the signal's reason thrown. */
  signal?: AbortSignal;
}

/**
 * Reads a database's catalog into an {@link InspectedDatabase}.
 *
 * @throws CrawlerError on a bad URL or filter (exit code 2) or a connection/catalog failure (1).
 */
export async function inspectDatabase(options: InspectOptions): Promise<InspectedDatabase> {
  const target = parseConnectionUrl(options.connectionUrl);
  const filters: InspectionFilters = {
    schemas: options.filters?.schemas ?? [],
    exclude_schemas: options.filters?.exclude_schemas ?? [],
    tables: options.filters?.tables ?? [],
    exclude_tables: options.filters?.exclude_tables ?? [],
    include_partitions: options.filters?.include_partitions ?? false,
  };
  const parsed = parseFilters(filters);
  const types = new TypeLog();
  const inspectDialect = await DIALECTS[target.dialect]();
  const { inspection, queries } = await withCatalog(
    target,
    async (catalog) => {
      const inspection = await inspectDialect(catalog, parsed, types, target);
      return { inspection, queries: catalog.queries };
    },
    options.onStatement,
    options.signal,
  );
  return {
    format: INSPECTION_FORMAT,
    format_version: INSPECTION_FORMAT_VERSION,
    dialect: target.dialect,
    flavor: FLAVOR_OF_DIALECT[target.dialect],
    server: inspection.server,
    database: inspection.database,
    filters,
    schemas: [...inspection.schemas].sort(compareText),
    tables: inspection.tables,
    unmapped_types: types.unmappedTypes(),
    approximate_types: types.approximateTypes(),
    summary: summarise(inspection.schemas.length, inspection.tables, queries),
  };
}

function summarise(schemas: number, tables: InspectedTable[], queries: number): InspectionSummary {
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
