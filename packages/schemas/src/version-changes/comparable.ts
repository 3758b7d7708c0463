import type { SchemaVersion, TypeSpec } from '../entities/schema-version.js';
import type { TypeInstanceTree } from '../entities/type-instance.js';

// A version's structure in the terms the classifier compares, as every side can give it: the crawler's
// inspected table, the registry's read shape (`comparableVersionOf`), the registry's publish input.

/** A type tree: a data-type code of the flavor, its params, child types by slot. */
export interface ComparableType {
  data_type: string;
  params?: Record<string, unknown> | null | undefined;
  children?: readonly { slot: string; type: ComparableType }[] | undefined;
}

export interface ComparableColumn {
  name: string;
  nullable: boolean;
  /** The normalised type; null when the native type has no data type (kept by `native_type`). */
  type: ComparableType | null;
  native_type: string | null;
  /** The registry's text of the type, when known (reported with a type change). */
  rendered_type?: string | null | undefined;
  default: string | null;
  comment: string | null;
  identity: string | null;
  generated: string | null;
  collation: string | null;
}

export interface ComparableKey {
  name: string | null;
  columns: readonly string[];
}

export interface ComparableForeignKey {
  name: string | null;
  columns: readonly string[];
  /** The referenced table by `schema.table` (a registry also has its dataset id: not compared). */
  referenced: {
    schema?: string | null | undefined;
    table?: string | null | undefined;
    columns: readonly string[];
  };
  on_update: string;
  on_delete: string;
}

export interface ComparableIndex {
  name: string;
  unique: boolean;
  method: string | null;
  columns: readonly string[] | null;
  expression: string | null;
  include: readonly string[];
  predicate: string | null;
  definition: string | null;
}

/** One version of a table: the columns in order, the keys, the kind and comments. */
export interface ComparableVersion {
  /** null: a table. */
  table_kind: string | null;
  table_comment: string | null;
  view_definition: string | null;
  columns: readonly ComparableColumn[];
  primary_key: ComparableKey | null;
  unique_constraints: readonly ComparableKey[];
  foreign_keys: readonly ComparableForeignKey[];
  indexes: readonly ComparableIndex[];
  check_constraints: readonly { name: string | null; expression: string }[];
}

const SCALAR = new Set(['string', 'number', 'boolean']);

/** Params as a crawler declares them: the scalar ones (others dropped); undefined when none. */
export function scalarParams(
  params: Record<string, unknown> | null | undefined,
): Record<string, unknown> | undefined {
  const scalars = Object.entries(params ?? {}).filter(([, value]) => SCALAR.has(typeof value));
  return scalars.length > 0 ? Object.fromEntries(scalars) : undefined;
}

/** A stored type tree in a crawler's terms: code, scalar params (others dropped), children by slot. */
export function typeSpecOfTree(tree: TypeInstanceTree): TypeSpec {
  const node: TypeSpec = { data_type: tree.data_type_code };
  const params = scalarParams(tree.type_params);
  if (params !== undefined) node.params = params;
  if (tree.children.length > 0) {
    node.children = tree.children.map((child) => ({ slot: child.slot ?? '', type: typeSpecOfTree(child) }));
  }
  return node;
}

/** A version as the registry reads it (its read shape), in the classifier's terms, columns by position. */
export function comparableVersionOf(version: SchemaVersion): ComparableVersion {
  return {
    ...version,
    columns: [...version.columns]
      .sort((a, b) => a.position - b.position)
      .map((c) => ({
        name: c.name,
        nullable: c.nullable,
        type: c.type === null ? null : typeSpecOfTree(c.type),
        native_type: c.native_type,
        default: c.default,
        comment: c.comment,
        identity: c.identity,
        generated: c.generated,
        collation: c.collation,
      })),
  };
}
