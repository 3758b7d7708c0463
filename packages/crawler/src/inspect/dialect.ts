import type { Catalog } from '../connection/catalog.js';
import type { ConnectionTarget } from '../connection/url.js';
import type { InspectedDatabase, InspectedTable } from '../model.js';
import type { TypeLog } from '../normalise/type-log.js';
import type { ParsedFilters } from './filters.js';

/** What a dialect module reads; the caller adds the format header, filters and summary. */
export interface DialectInspection {
  server: InspectedDatabase['server'];
  database: string;
  schemas: string[];
  tables: InspectedTable[];
}

/**
 * A dialect module: reads the whole catalog with a fixed number of queries (whatever the table
 * count), filtered in SQL, and maps column types through `types`.
 */
export type InspectDialect = (
  catalog: Catalog,
  filters: ParsedFilters,
  types: TypeLog,
  target: ConnectionTarget,
) => Promise<DialectInspection>;
