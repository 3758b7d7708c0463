// `inspect`'s engine: URL → its source's driver (sources/registry.ts); for a database, connection → the
// dialect's catalog queries → the versioned model.
import { withCatalog } from '../connection/catalog.js';
import type { ConnectionTarget } from '../connection/url.js';
import {
  FLAVOR_OF_DIALECT,
  INSPECTION_FORMAT,
  INSPECTION_FORMAT_VERSION,
  type InspectedDatabase,
  type InspectionFilters,
} from '../model.js';
import { compareText, TypeLog } from '../normalise/type-log.js';
import { completeFilters, openSource, SOURCES, type SourceList } from '../sources/registry.js';
import type { SourceInspectOptions } from '../sources/source-driver.js';
import type { InspectDialect } from './dialect.js';
import { parseFilters } from './filters.js';
import { summarise } from '../sources/inspection.js';

export interface InspectOptions {
  connectionUrl: string;
  filters?: Partial<InspectionFilters>;
  /** Called with every statement sent to a database server (tests count them). */
  onStatement?: (sql: string) => void;
  /** Stops the inspection: the statement in flight is cancelled and the signal's reason thrown. */
  signal?: AbortSignal;
}

/**
 * Reads the source a URL names (its driver from the source registry) into an {@link InspectedDatabase}.
 *
 * @throws CrawlerError on a bad URL or filter (exit code 2) or a connection/catalog failure (1).
 */
export async function inspectDatabase(
  options: InspectOptions,
  sources: SourceList = SOURCES,
): Promise<InspectedDatabase> {
  const filters = completeFilters(options.filters);
  parseFilters(filters);
  const { driver, target } = await openSource(options.connectionUrl, sources);
  const databaseOptions: DatabaseInspectOptions = {
    filters,
    signal: options.signal,
    onStatement: options.onStatement,
  };
  return driver.inspect(target, databaseOptions);
}

/** A database driver's inspect options: a source's, and a hook on every statement sent (tests count them). */
export interface DatabaseInspectOptions extends SourceInspectOptions {
  onStatement?: (sql: string) => void;
}

/**
 * A database's catalog read by its dialect module (a fixed number of queries) into the model: what
 * the database drivers (sources/postgresql.ts, mysql.ts, sqlite.ts) run.
 */
export async function inspectCatalog(
  target: ConnectionTarget,
  inspectDialect: InspectDialect,
  options: DatabaseInspectOptions,
): Promise<InspectedDatabase> {
  const { filters } = options;
  const parsed = parseFilters(filters);
  const types = new TypeLog();
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

/** The counts of an inspection's `summary` (also for sources that are not databases: `queries` 0). */
