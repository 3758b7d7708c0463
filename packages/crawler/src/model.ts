// The crawler's view of a database, as `inspect` prints it (`--format json`) and as the later
// diff/apply steps consume it. Plain JSON-serialisable data; its shape is versioned by
// INSPECTION_FORMAT_VERSION (bump it on any incompatible change).
import type { DatasetKind, TypeSpec } from '@aide/schemas';

export const INSPECTION_FORMAT = 'aide-crawler.inspection';
export const INSPECTION_FORMAT_VERSION = 1;

/** The SQL dialect a connection URL names; MariaDB is `mysql`. */
export type Dialect = 'postgresql' | 'mysql' | 'sqlite';

/** The registry flavor whose data-type codes a dialect's types are normalised to. */
export type FlavorCode = 'postgres14' | 'mysql8' | 'sqlite3';

export const FLAVOR_OF_DIALECT: Record<Dialect, FlavorCode> = {
  postgresql: 'postgres14',
  mysql: 'mysql8',
  sqlite: 'sqlite3',
};

/**
 * A normalised type: a data-type code of the dialect's flavor, its params (valid against the data
 * type's params schema) and child types by slot (`item` for array elements, `field:<name>` for the
 * members of composite types). The same shape as the publish input's `TypeSpec`.
 */
export interface TypeNode {
  data_type: string;
  params?: Record<string, string | number | boolean>;
  children?: { slot: string; type: TypeNode }[];
}

// A type tree is publishable as is.
const publishable: TypeNode extends TypeSpec ? true : never = true;
void publishable;

export type TableKind = 'table' | 'view' | 'materialized_view' | 'partitioned_table' | 'foreign_table';

/** SQL referential actions as the databases name them. */
export type ReferentialAction = 'NO ACTION' | 'RESTRICT' | 'CASCADE' | 'SET NULL' | 'SET DEFAULT';

export interface InspectedColumn {
  name: string;
  /** 1-based position among the table's visible columns. */
  ordinal: number;
  /** The type exactly as the database formats it (`character varying(40)`, `int(10) unsigned`, `VARCHAR(20)`). */
  native_type: string;
  /** The normalised type; null when the native type has no mapping (see `unmapped_types`). */
  type: TypeNode | null;
  nullable: boolean;
  /** The default expression as the database prints it; null when none. */
  default: string | null;
  comment: string | null;
  identity: 'always' | 'by_default' | null;
  generated: { expression: string; stored: boolean } | null;
  /** An explicit collation (PostgreSQL, SQLite) or the column's collation (MySQL); null when none. */
  collation: string | null;
  /** The domain the column is declared with (PostgreSQL), schema-qualified; its base type is `type`. */
  domain: string | null;
  /** MySQL's `ON UPDATE` expression of a timestamp column. */
  on_update: string | null;
}

export interface KeyConstraint {
  /** Null where the database keeps no name (SQLite constraints declared without CONSTRAINT). */
  name: string | null;
  columns: string[];
}

export interface ForeignKey {
  name: string | null;
  columns: string[];
  referenced: { schema: string; table: string; columns: string[] };
  on_update: ReferentialAction;
  on_delete: ReferentialAction;
}

export interface Index {
  name: string;
  unique: boolean;
  /** Access method in lower case: btree, hash, gin, gist, brin, fulltext, spatial, … */
  method: string | null;
  /** The key columns, when every key part is a plain column; null when one is an expression. */
  columns: string[] | null;
  /** The key parts as text (`lower(email), id`), when one of them is an expression; else null. */
  expression: string | null;
  /** Non-key columns (PostgreSQL INCLUDE). */
  include: string[];
  /** The WHERE clause of a partial index. */
  predicate: string | null;
  /** The full definition where the database provides one (PostgreSQL, SQLite). */
  definition: string | null;
}

export interface CheckConstraint {
  name: string | null;
  expression: string;
}

/** A partition, reported under its root partitioned table. */
export interface Partition {
  schema: string;
  name: string;
  /** The direct parent (differs from the root for sub-partitions). */
  parent: { schema: string; name: string };
  kind: TableKind;
  /** The partition bound (`FOR VALUES FROM (…) TO (…)`, `VALUES LESS THAN (2020)`, …). */
  bound: string | null;
}

/**
 * Which registry dataset a table of a non-database source becomes (files, Kafka schemas, lakehouse
 * tables): its kind and the kind's attributes (DATASET_KIND_ATTRIBUTES of `@aide/schemas`, e.g. `path`,
 * `file_format`, `compression`, `partition_by` for storage). Absent for database tables (kind rdbms).
 */
export interface DatasetPlacement {
  kind: DatasetKind;
  /** The registry dataset's `object_name` (a path, a topic). */
  object_name: string;
  attributes: Record<string, unknown>;
  /** The dataset's flavor when it differs from the source's (a Protobuf subject on a Kafka source). */
  flavor?: string;
}

/** Part of a source that could not be read (a corrupt file, a schema that does not parse): reported, the crawl goes on. */
export interface SourceProblem {
  /** The file, subject or table, as the source names it. */
  path: string;
  reason: string;
}

export interface InspectedTable {
  /** Set by non-database sources: the dataset kind, object name and attributes. */
  placement?: DatasetPlacement;
  schema: string;
  name: string;
  kind: TableKind;
  comment: string | null;
  /** The SELECT of a view or materialized view. */
  view_definition: string | null;
  columns: InspectedColumn[];
  primary_key: KeyConstraint | null;
  unique_constraints: KeyConstraint[];
  foreign_keys: ForeignKey[];
  /** Indexes other than those backing the primary key and unique constraints. */
  indexes: Index[];
  check_constraints: CheckConstraint[];
  /** The partition key of a partitioned table (`RANGE (created_at)`). */
  partition_key: string | null;
  partitions: Partition[];
  /** Set when partitions are listed as tables (`--include-partitions`): the table's parent and bound. */
  partition_of: { schema: string; name: string; bound: string | null } | null;
}

/** A native type that has no mapping, with how many columns use it. */
export interface UnmappedType {
  native_type: string;
  columns: number;
}

/** A native type mapped to a less precise code (SQLite type affinity, MySQL unsigned decimals). */
export interface ApproximateType {
  native_type: string;
  data_type: string;
  columns: number;
}

export interface InspectionFilters {
  schemas: string[];
  exclude_schemas: string[];
  tables: string[];
  exclude_tables: string[];
  include_partitions: boolean;
}

export interface InspectedDatabase {
  format: typeof INSPECTION_FORMAT;
  format_version: typeof INSPECTION_FORMAT_VERSION;
  /** The source driver's name: the database dialect (`postgresql`, `mysql`, `sqlite`) or another source's. */
  dialect: string;
  /** The registry flavor the native types are normalised to: one of the driver's flavors. */
  flavor: string;
  /** `PostgreSQL`, `MySQL`, `MariaDB`, `SQLite`, or what another source names itself (`Files`). */
  server: { product: string; version: string };
  /** PostgreSQL: current_database(); MySQL: the URL's database ('' when none); SQLite: the file name. */
  database: string;
  filters: InspectionFilters;
  /** The schemas inspected (sorted), including those without tables. */
  schemas: string[];
  /** Sorted by schema, then name (code-point order). */
  tables: InspectedTable[];
  unmapped_types: UnmappedType[];
  approximate_types: ApproximateType[];
  /** What a non-database source could not read; absent (or empty) for databases. */
  problems?: SourceProblem[];
  summary: InspectionSummary;
}

export interface InspectionSummary {
  schemas: number;
  tables: Record<TableKind, number>;
  partitions: number;
  columns: number;
  primary_keys: number;
  unique_constraints: number;
  foreign_keys: number;
  indexes: number;
  check_constraints: number;
  unmapped_columns: number;
  /** Catalog queries issued (a fixed number per dialect, whatever the table count). */
  catalog_queries: number;
}
