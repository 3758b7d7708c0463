// --schemas / --exclude-schemas / --tables / --exclude-tables: comma lists of glob-like patterns
// (`*` any run of characters, `?` one character; double quotes keep `.` and `,` literal), turned into
// SQL conditions so that the filtering happens in the catalog queries, not after them.
import { CrawlerError, ExitCode } from '../errors.js';
import type { InspectionFilters } from '../model.js';

/** A table pattern: `table` (any schema) or `schema.table`. */
export interface TablePattern {
  schema: string | null;
  table: string;
}

/** The filters as patterns, ready to become SQL. */
export interface ParsedFilters {
  schemas: string[];
  excludeSchemas: string[];
  tables: TablePattern[];
  excludeTables: TablePattern[];
  includePartitions: boolean;
}

/** A fragment of SQL with its positional (`?`) bindings. */
export interface SqlCondition {
  sql: string;
  bindings: string[];
}

/** How a dialect compares a name column with a pattern; the pattern is one `?` binding. */
export interface PatternMatcher {
  /** SQL testing `column` against the bound pattern. */
  match(column: string): string;
  /** The binding for a glob. */
  pattern(glob: string): string;
}

/** Splits a comma list, keeping commas inside double quotes; trims items and drops empty ones. */
export function splitList(value: string | undefined): string[] {
  if (value === undefined) return [];
  const items: string[] = [];
  let current = '';
  let quoted = false;
  for (const char of value) {
    if (char === '"') quoted = !quoted;
    if (char === ',' && !quoted) {
      items.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  items.push(current);
  return items.map((item) => item.trim()).filter((item) => item.length > 0);
}

/** Removes identifier quoting: `"a""b"` → `a"b`; unquoted text is kept as is. */
function unquote(part: string, raw: string): string {
  if (!part.startsWith('"')) {
    if (part.includes('"')) throw usage(`invalid name pattern '${raw}': unbalanced double quote`);
    return part;
  }
  if (part.length < 2 || !part.endsWith('"')) {
    throw usage(`invalid name pattern '${raw}': unbalanced double quote`);
  }
  return part.slice(1, -1).replaceAll('""', '"');
}

/** Parses `table`, `schema.table`, `"my schema"."a.b"`. */
export function parseTablePattern(raw: string): TablePattern {
  let quoted = false;
  for (let i = 0; i < raw.length; i++) {
    const char = raw[i];
    if (char === '"') quoted = !quoted;
    if (char === '.' && !quoted) {
      const schema = unquote(raw.slice(0, i).trim(), raw);
      const table = unquote(raw.slice(i + 1).trim(), raw);
      if (schema === '' || table === '') throw usage(`invalid table pattern '${raw}'`);
      return { schema, table };
    }
  }
  return { schema: null, table: unquote(raw, raw) };
}

export function parseFilters(filters: InspectionFilters): ParsedFilters {
  return {
    schemas: filters.schemas.map((s) => unquote(s, s)),
    excludeSchemas: filters.exclude_schemas.map((s) => unquote(s, s)),
    tables: filters.tables.map(parseTablePattern),
    excludeTables: filters.exclude_tables.map(parseTablePattern),
    includePartitions: filters.include_partitions,
  };
}

/** Whether a glob matches a whole name (for names that are not in a catalog table: SQLite's `main`). */
export function globMatches(glob: string, name: string): boolean {
  const pattern = [...glob]
    .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${pattern}$`, 'su').test(name);
}

/** Whether a schema name passes --schemas / --exclude-schemas. */
export function schemaSelected(filters: ParsedFilters, schema: string): boolean {
  const included = filters.schemas.length === 0 || filters.schemas.some((g) => globMatches(g, schema));
  return included && !filters.excludeSchemas.some((g) => globMatches(g, schema));
}

/** `LIKE … ESCAPE '!'` patterns (PostgreSQL, MySQL). */
export function globToLike(glob: string): string {
  let out = '';
  for (const char of glob) {
    if (char === '*') out += '%';
    else if (char === '?') out += '_';
    else if (char === '!' || char === '%' || char === '_') out += `!${char}`;
    else out += char;
  }
  return out;
}

/** SQLite GLOB patterns: `*` and `?` as is, `[` matched literally. */
export function globToSqliteGlob(glob: string): string {
  return glob.replaceAll('[', '[[]');
}

/** The WHERE condition selecting the relations the filters keep (system schemas are the caller's). */
export function relationFilter(
  filters: ParsedFilters,
  columns: { schema: string; table: string },
  matcher: PatternMatcher,
): SqlCondition {
  const parts: SqlCondition[] = [schemaFilter(filters, columns.schema, matcher)];
  const tableMatch = (pattern: TablePattern): SqlCondition => {
    const table = { sql: matcher.match(columns.table), bindings: [matcher.pattern(pattern.table)] };
    if (pattern.schema === null) return table;
    return and([{ sql: matcher.match(columns.schema), bindings: [matcher.pattern(pattern.schema)] }, table]);
  };
  if (filters.tables.length > 0) parts.push(or(filters.tables.map(tableMatch)));
  if (filters.excludeTables.length > 0) parts.push(not(or(filters.excludeTables.map(tableMatch))));
  return and(parts);
}

/** The condition on a schema-name column alone (the schemas list of the report). */
export function schemaFilter(filters: ParsedFilters, column: string, matcher: PatternMatcher): SqlCondition {
  const parts: SqlCondition[] = [];
  const match = (glob: string): SqlCondition => ({
    sql: matcher.match(column),
    bindings: [matcher.pattern(glob)],
  });
  if (filters.schemas.length > 0) parts.push(or(filters.schemas.map(match)));
  if (filters.excludeSchemas.length > 0) parts.push(not(or(filters.excludeSchemas.map(match))));
  return and(parts);
}

function and(parts: SqlCondition[]): SqlCondition {
  if (parts.length === 0) return { sql: 'TRUE', bindings: [] };
  return {
    sql: parts.map((p) => `(${p.sql})`).join(' AND '),
    bindings: parts.flatMap((p) => p.bindings),
  };
}

function or(parts: SqlCondition[]): SqlCondition {
  return {
    sql: parts.map((p) => `(${p.sql})`).join(' OR '),
    bindings: parts.flatMap((p) => p.bindings),
  };
}

function not(part: SqlCondition): SqlCondition {
  return { sql: `NOT (${part.sql})`, bindings: part.bindings };
}

function usage(message: string): CrawlerError {
  return new CrawlerError(message, { exitCode: ExitCode.USAGE });
}

/** Whether a table passes --tables / --exclude-tables (for names read elsewhere than a catalog). */
export function tableSelected(filters: ParsedFilters, schema: string, table: string): boolean {
  const matches = (p: TablePattern) =>
    (p.schema === null || globMatches(p.schema, schema)) && globMatches(p.table, table);
  return (
    (filters.tables.length === 0 || filters.tables.some(matches)) && !filters.excludeTables.some(matches)
  );
}
