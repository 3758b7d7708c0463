// The database sources (PostgreSQL, MySQL/MariaDB, SQLite) as drivers: each parses its own URL schemes
// (connection/url.ts) and reads the catalog with its dialect module (inspect/inspect.ts), which is
// imported when a database of that dialect is inspected.
import type { ConnectionTarget } from '../connection/url.js';
import { parseConnectionUrl } from '../connection/url.js';
import type { InspectDialect } from '../inspect/dialect.js';
import { inspectCatalog, type DatabaseInspectOptions } from '../inspect/inspect.js';
import type { Dialect } from '../model.js';
import { registeredSource } from './registry.js';
import type { SourceDriver, SourceTarget } from './source-driver.js';

/** A parsed database URL, as every source's target is: the driver's name in `source`. */
export type DatabaseTarget = ConnectionTarget & SourceTarget;

export type DatabaseDriver = SourceDriver<DatabaseTarget> & {
  inspect(target: DatabaseTarget, options: DatabaseInspectOptions): ReturnType<SourceDriver['inspect']>;
};

/** The database driver of `dialect` (its name), described as the registry describes it. */
export function databaseDriver(dialect: Dialect, loadDialect: () => Promise<InspectDialect>): DatabaseDriver {
  const description = registeredSource(dialect);
  return {
    name: description.name,
    schemes: description.schemes,
    flavors: description.flavors,
    usage: description.usage,
    parse: (url) => ({ ...parseConnectionUrl(url, dialect), source: description.name }),
    inspect: async (target, options) => inspectCatalog(target, await loadDialect(), options),
  };
}
