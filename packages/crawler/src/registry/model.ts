// What the registry holds for one table, in the terms the diff compares: a dataset and its current
// schema version with everything a crawl records (issue 9 §1). `versionOfTable` gives the version a
// crawl would publish for an inspected table, so the diff, the report's targets and `apply` share one
// shape; the registry's snapshot is read into the same shape (registry/snapshot.ts).
import type { DatasetKind } from '@aide/schemas';
import type {
  CheckConstraint,
  ForeignKey,
  Index,
  InspectedColumn,
  InspectedTable,
  KeyConstraint,
  TableKind,
  TypeNode,
} from '../model.js';

export interface VersionColumn {
  name: string;
  nullable: boolean;
  /** The normalised type; null when the native type has no mapping (kept by `native_type`). */
  type: TypeNode | null;
  native_type: string;
  /**
   * The registry's own text of the type (its flavor's render template), read from the snapshot;
   * absent on the database's side, where `native_type` is the text.
   */
  rendered_type?: string | null;
  default: string | null;
  comment: string | null;
  identity: 'always' | 'by_default' | null;
  /** The generation expression of a generated column. */
  generated: string | null;
  collation: string | null;
}

/** A foreign key as the registry keeps it: the referenced table by name (resolved from an id on read). */
export type VersionForeignKey = ForeignKey;

export type VersionIndex = Index;

/** One schema version of a table: the columns in order, the keys, the kind and comments. */
export interface TableVersion {
  table_kind: TableKind;
  table_comment: string | null;
  view_definition: string | null;
  columns: VersionColumn[];
  primary_key: KeyConstraint | null;
  unique_constraints: KeyConstraint[];
  foreign_keys: VersionForeignKey[];
  indexes: VersionIndex[];
  check_constraints: CheckConstraint[];
}

/**
 * How a crawled table and a registry dataset are matched: an rdbms dataset by its schema and table (its
 * object_name may be anything), a dataset of another kind (`kind` set) by its object_name.
 */
export interface DatasetRef {
  /** The dataset's kind; absent for rdbms (database tables). */
  kind?: DatasetKind;
  object_name: string;
  /** rdbms: the schema; other kinds: the inspected table's schema, or '' on the registry's side. */
  schema: string;
  /** rdbms: the table; other kinds: the inspected table's name, or the object_name on the registry's side. */
  table: string;
}

/** The key a crawled table and its registry dataset share (see DatasetRef). */
export function datasetKey(ref: DatasetRef): string {
  return ref.kind === undefined || ref.kind === 'rdbms'
    ? JSON.stringify([ref.schema, ref.table])
    : JSON.stringify([ref.object_name]);
}

/** An inspected table as the dataset it becomes: placed (non-database sources) or `schema.table`. */
export function refOfTable(table: InspectedTable): DatasetRef {
  const { placement } = table;
  return placement === undefined
    ? { object_name: objectName(table.schema, table.name), schema: table.schema, table: table.name }
    : { kind: placement.kind, object_name: placement.object_name, schema: table.schema, table: table.name };
}

/** A registry dataset of the crawled system, with its current version (null when it has none). */
export interface RegistryDataset extends DatasetRef {
  dataset_id: string;
  /** The current version's number: the base a report's change is computed from; null when none. */
  version_num: number | null;
  version: TableVersion | null;
  /**
   * The current version's fingerprint equals the inspected table's (ADR 0032): the version was not
   * read (`version` is null) and the table is unchanged.
   */
  unchanged?: boolean;
}

/**
 * The registry's `object_name` of a table: `schema.table`, as the original crawler named them, with a
 * part double-quoted (a `"` inside doubled) only when it holds a `.` or a `"`, so that `"x.y".z` and
 * `x."y.z"` stay two names while every other name keeps its plain form (`Sales.Order Lines` too).
 */
export function objectName(schema: string, table: string): string {
  return `${objectNamePart(schema)}.${objectNamePart(table)}`;
}

function objectNamePart(name: string): string {
  return /[."]/.test(name) ? `"${name.replaceAll('"', '""')}"` : name;
}

function versionColumn(column: InspectedColumn): VersionColumn {
  return {
    name: column.name,
    nullable: column.nullable,
    type: column.type,
    native_type: column.native_type,
    default: column.default,
    comment: column.comment,
    identity: column.identity,
    generated: column.generated?.expression ?? null,
    collation: column.collation,
  };
}

/** The version a crawl publishes for an inspected table. */
export function versionOfTable(table: InspectedTable): TableVersion {
  return {
    table_kind: table.kind,
    table_comment: table.comment,
    view_definition: table.view_definition,
    columns: table.columns.map(versionColumn),
    primary_key: table.primary_key,
    unique_constraints: table.unique_constraints,
    foreign_keys: table.foreign_keys,
    indexes: table.indexes,
    check_constraints: table.check_constraints,
  };
}
