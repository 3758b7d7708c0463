// The type names of OpenLineage schema facets (`fields[].type`) as data types of a dataset's flavor
// (ADR 0057): Spark writes `integer`, `long`, `string`, `decimal(10,2)`, `struct<…>`; Airflow's SQL
// extractors the database's own names (`int4`, `varchar`, `timestamp`); Flink `INT`, `STRING`,
// `VARCHAR(2147483647)`; dbt usually nothing. The spelling tables are `@aide/schemas`' (ADR 0062), shared
// with the crawler's catalog readers; this module parses a facet's text against them. A name the flavor's
// table does not know stays text.
import type { ComparableType } from '@aide/schemas';
import { codeOf, OPENLINEAGE_FACET_SPELLINGS } from '@aide/schemas/type-spellings';

/** Parameters a type name carries in parentheses, by the data type they belong to. */
function paramsOf(code: string, args: number[]): Record<string, number> | undefined {
  if (args.length === 0) return undefined;
  if (['decimal', 'numeric'].includes(code)) {
    return args.length >= 2 ? { precision: args[0], scale: args[1] } : { precision: args[0] };
  }
  if (['varchar', 'char'].includes(code)) return { length: args[0] };
  return undefined;
}

/** A type name split: its base (lower case, single spaces; a container its kind) and its numeric arguments. */
function parse(text: string): { base: string; args: number[] } {
  const t = text.trim().toLowerCase().replace(/\s+/g, ' ');
  // `array<int>`, `struct<a:int>`, `map<string,int>`, `ARRAY<INT>`: the container alone.
  const container = /^([a-z_]+)\s*</.exec(t);
  if (container) return { base: container[1], args: [] };
  const call = /^([a-z_ ]+?)\s*\(([^)]*)\)(.*)$/.exec(t);
  if (!call) return { base: t, args: [] };
  const args = call[2]
    .split(',')
    .map((a) => Number(a.trim()))
    .filter((n) => Number.isInteger(n));
  // `timestamp(3) with time zone`: the words after the parentheses are part of the name.
  return { base: `${call[1].trim()}${call[3].trimEnd()}`.trim(), args };
}

/** Whether the flavor has a table of OpenLineage type names. */
export const knowsTypesOf = (flavor: string | null): boolean =>
  flavor !== null && Object.hasOwn(OPENLINEAGE_FACET_SPELLINGS, flavor);

/**
 * The data type of the flavor an OpenLineage type name names: its code, and the parameters the name
 * gives (`decimal(10,2)` → precision 10, scale 2; `varchar(64)` → length 64). Null when the name is
 * empty or the flavor's table does not know it (it is then compared as text).
 */
export function observedTypeOf(text: string | null, flavor: string | null): ComparableType | null {
  if (!text || text.trim() === '' || !knowsTypesOf(flavor)) return null;
  const { base, args } = parse(text);
  const code = codeOf(OPENLINEAGE_FACET_SPELLINGS[flavor as string], base);
  if (!code) return null;
  const params = paramsOf(code, args);
  return params ? { data_type: code, params } : { data_type: code };
}

/** A registered data-type code as the table writes it (`integer` of Spark SQL is `int`, as `decimal` of PostgreSQL is `numeric`). */
export function canonicalCode(code: string, flavor: string | null): string | null {
  if (!knowsTypesOf(flavor)) return null;
  return codeOf(OPENLINEAGE_FACET_SPELLINGS[flavor as string], code.toLowerCase()) ?? null;
}
