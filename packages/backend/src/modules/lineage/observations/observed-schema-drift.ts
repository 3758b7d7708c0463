// A schema facet against a dataset's current version (ADR 0054), classified by the crawler's classifier
// (`@aide/schemas` version-changes), types included (ADR 0057): a facet's type name is read as a data
// type of the dataset's flavor where the flavor's table knows it (`openlineage-types.ts`), and compared
// with the registered column's type like a crawl would; a name it does not know is compared as text
// with the registered column's native type; a field without a type (dbt) is compared by name only.
// A field without a column is a nullable addition (a schema facet has no nullability).
import {
  type ComparableColumn,
  type ComparableType,
  type ComparableVersion,
  classifyChanges,
  type SchemaChange,
  worstCompatibility,
} from '@aide/schemas';
import { canonicalCode, observedTypeOf } from './openlineage-types.js';

/** How observations made from now on compare types (`names_only`: observations stored before ADR 0057). */
export const TYPE_COMPARISON = 'types' as const;

/** A field as the facet sent it. */
export interface ObservedField {
  name: string;
  type: string | null;
}

/** A registered column as the comparison reads it: its root data type, or its native type text. */
export interface RegisteredColumn {
  name: string;
  nullable: boolean;
  default: string | null;
  comment: string | null;
  identity: string | null;
  generated: string | null;
  collation: string | null;
  /** The root data type's code and params; null for a column typed by its native text only. */
  code?: string | null;
  params?: Record<string, unknown> | null;
  native_type?: string | null;
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

type TypeSide = Pick<ComparableColumn, 'type' | 'native_type'>;
const untyped: TypeSide = { type: null, native_type: null };

const column = (c: RegisteredColumn, side: TypeSide): ComparableColumn => ({
  name: c.name,
  nullable: c.nullable,
  default: c.default,
  comment: c.comment,
  identity: c.identity,
  generated: c.generated,
  collation: c.collation,
  ...side,
});

/** The registered column's type as text: its native type, else its code (with the params it has). */
function registeredText(c: RegisteredColumn): string | null {
  if (c.native_type) return c.native_type;
  if (!c.code) return null;
  const args = Object.values(c.params ?? {}).filter((v) => typeof v === 'number');
  return args.length > 0 ? `${c.code}(${args.join(',')})` : c.code;
}

/**
 * The two sides of a column's type comparison: data types when both are known in the flavor (the
 * registered params dropped when the facet gives none: `varchar` matches `varchar(64)`), else the
 * texts (equal when they differ only in case), else nothing compared.
 */
function typeSides(c: RegisteredColumn, f: ObservedField, flavor: string | null): [TypeSide, TypeSide] {
  if (!f.type || f.type.trim() === '') return [untyped, untyped];
  const seen = observedTypeOf(f.type, flavor);
  const code = c.code ? canonicalCode(c.code, flavor) : null;
  if (seen && code) {
    const before: ComparableType = seen.params
      ? { data_type: code, ...(c.params ? { params: c.params } : {}) }
      : { data_type: code };
    return [
      { type: before, native_type: null },
      { type: seen, native_type: null },
    ];
  }
  const text = registeredText(c);
  if (text === null) return [untyped, untyped];
  const same = text.trim().toLowerCase() === f.type.trim().toLowerCase();
  return [
    { type: null, native_type: text },
    { type: null, native_type: same ? text : f.type },
  ];
}

/**
 * The changes from the registered columns (none: a dataset without a version) to the fields seen. A field
 * is the registered column whose name equals it, else the one whose name differs only in case
 * (integrations such as Spark lower-case names); the flavor code selects the format's evolution rules
 * and the table of type names.
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
  const before = new Map<string, ComparableColumn>(registered.map((c) => [c.name, column(c, untyped)]));
  const seen: ComparableColumn[] = [];
  const taken = new Set<string>();
  for (const f of observed) {
    const sameCase = folded.get(f.name.toLowerCase()) ?? [];
    const match = exact.get(f.name) ?? (sameCase.length === 1 ? sameCase[0] : undefined);
    if (match && !taken.has(match.name)) {
      taken.add(match.name);
      const [was, is] = typeSides(match, f, flavor);
      before.set(match.name, column(match, was));
      seen.push(column(match, is));
    } else if (!match) {
      const type = f.type ? observedTypeOf(f.type, flavor) : null;
      seen.push({
        name: f.name,
        nullable: true,
        type,
        native_type: type === null && f.type ? f.type : null,
        default: null,
        comment: null,
        identity: null,
        generated: null,
        collation: null,
      });
    }
  }
  const changes = classifyChanges(table([...before.values()]), table(seen), { flavor });
  return { drift: worstCompatibility(changes) ?? 'none', changes };
}
