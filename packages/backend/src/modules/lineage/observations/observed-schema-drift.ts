// A schema facet against a dataset's current version (ADR 0054), classified by the crawler's classifier
// (`@aide/schemas` version-changes). OpenLineage types are free text ("varchar", "STRING", "long", …)
// that no flavor's data types name reliably, so the comparison is by name, presence and order only:
// both sides carry no type, a column seen keeps the registered column's attributes, a field without a
// column is a nullable addition (a schema facet has no nullability).
import {
  type ComparableColumn,
  type ComparableVersion,
  classifyChanges,
  type SchemaChange,
  worstCompatibility,
} from '@aide/schemas';

/** A field as the facet sent it. */
export interface ObservedField {
  name: string;
  type: string | null;
}

/** A registered column as the comparison reads it (its type left out). */
export interface RegisteredColumn {
  name: string;
  nullable: boolean;
  default: string | null;
  comment: string | null;
  identity: string | null;
  generated: string | null;
  collation: string | null;
}

export type DriftClass = 'none' | 'compatible' | 'breaking';

export interface Drift {
  drift: DriftClass;
  changes: SchemaChange[];
}

const table = (columns: readonly ComparableColumn[]): ComparableVersion => ({
  table_kind: null,
  table_comment: null,
  view_definition: null,
  columns,
  primary_key: null,
  unique_constraints: [],
  foreign_keys: [],
  indexes: [],
  check_constraints: [],
});

const untyped = (c: RegisteredColumn): ComparableColumn => ({ ...c, type: null, native_type: null });

/**
 * The changes from the registered columns (none: a dataset without a version) to the fields seen. A field
 * is the registered column whose name equals it, else the one whose name differs only in case
 * (integrations such as Spark lower-case names); the flavor code selects the format's evolution rules.
 */
export function driftOf(
  registered: readonly RegisteredColumn[],
  observed: readonly ObservedField[],
  flavor: string | null,
): Drift {
  const exact = new Map(registered.map((c) => [c.name, c]));
  const folded = new Map<string, RegisteredColumn[]>();
  for (const c of registered)
    folded.set(c.name.toLowerCase(), [...(folded.get(c.name.toLowerCase()) ?? []), c]);
  const seen: ComparableColumn[] = [];
  const taken = new Set<string>();
  for (const f of observed) {
    const sameCase = folded.get(f.name.toLowerCase()) ?? [];
    const column = exact.get(f.name) ?? (sameCase.length === 1 ? sameCase[0] : undefined);
    if (column && !taken.has(column.name)) {
      taken.add(column.name);
      seen.push(untyped(column));
    } else if (!column) {
      seen.push({
        name: f.name,
        nullable: true,
        type: null,
        native_type: null,
        default: null,
        comment: null,
        identity: null,
        generated: null,
        collation: null,
      });
    }
  }
  const changes = classifyChanges(table(registered.map(untyped)), table(seen), { flavor });
  return { drift: worstCompatibility(changes) ?? 'none', changes };
}
