// Helpers of the files source tests: the committed fixtures (test/fixtures/files/generate.mjs writes
// them with real writers) and a driver run with no filters.
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type {
  InspectedColumn,
  InspectedDatabase,
  InspectedTable,
  InspectionFilters,
} from '../../src/model.js';
import { filesDriver } from '../../src/sources/files/driver.js';

export const LAKE = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'files', 'lake');

export const NO_FILTERS: InspectionFilters = {
  schemas: [],
  exclude_schemas: [],
  tables: [],
  exclude_tables: [],
  include_partitions: false,
};

/** Inspects a local folder or file through the driver, as `aide-crawler inspect file:///…` does. */
export async function inspectPath(
  path: string,
  filters: Partial<InspectionFilters> = {},
): Promise<InspectedDatabase> {
  const target = filesDriver.parse(pathToFileURL(path).href);
  return filesDriver.inspect(target, { filters: { ...NO_FILTERS, ...filters } });
}

export function table(inspection: InspectedDatabase, name: string): InspectedTable {
  const found = inspection.tables.find((t) => t.name === name);
  if (found === undefined)
    throw new Error(`no dataset ${name} among ${inspection.tables.map((t) => t.name).join(', ')}`);
  return found;
}

export function column(inspected: InspectedTable, name: string): InspectedColumn {
  const found = inspected.columns.find((c) => c.name === name);
  if (found === undefined) throw new Error(`no column ${name} in ${inspected.name}`);
  return found;
}

/** name → [native_type, type] for compact expectations. */
export function typesOf(inspected: InspectedTable): Record<string, [string, unknown]> {
  return Object.fromEntries(inspected.columns.map((c) => [c.name, [c.native_type, c.type]]));
}
