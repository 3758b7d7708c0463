// The model every translation renderer reads (issue 25 §2): a stored version whose column types have
// been cast, node by node, into the target flavor through the cast rules. The service builds it
// (translations.service.ts); a renderer per output format turns it into text (renderers/*.ts), and
// reports what the format cannot hold through `Omissions` — never dropping anything silently.
import type { CastFidelity, TranslationOmission } from '@aide/schemas';

/** A type cast into the target flavor: the target data type, its params, its children. */
export interface TranslatedType {
  /** The target flavor's data type code (`varchar`, `long`, `record`, `int64`, `struct`…). */
  code: string;
  /** Params after the cast's param mapping, validated against the target's params schema. */
  params: Record<string, unknown>;
  /** The type's text from the target's render template; null when it does not render. */
  rendered: string | null;
  /**
   * Children by slot as the target flavor names them: `element`/`item` (lists, arrays), `key`/`value`
   * (maps), `field:<name>` (struct/record fields, in order).
   */
  children: { slot: string | null; type: TranslatedType; nullable: boolean }[];
}

export interface TranslatedColumn {
  name: string;
  nullable: boolean;
  /** null: the column's type has no cast into the target (reported as an omission). */
  type: TranslatedType | null;
  /** The source version's default expression text, as stored (a renderer decides if it carries). */
  default: string | null;
  comment: string | null;
  /** The source side, for messages: the version's rendered type and native type. */
  source_type: string | null;
  native_type: string | null;
  fidelity: CastFidelity | null;
  loss: string[];
}

export interface TranslatedKey {
  name: string | null;
  columns: string[];
}

export interface TranslatedForeignKey extends TranslatedKey {
  referenced: { schema: string | null; table: string | null; columns: string[] };
}

export interface TranslatedTable {
  /** The table, record or message name (the dataset's table/object name). */
  name: string;
  /** A schema, database or Avro/Protobuf namespace; null when none. */
  namespace: string | null;
  comment: string | null;
  target_flavor: string;
  columns: TranslatedColumn[];
  primary_key: TranslatedKey | null;
  unique_constraints: TranslatedKey[];
  foreign_keys: TranslatedForeignKey[];
  /** Partition columns (Hive-style layouts), in order; empty when none. */
  partition_columns: string[];
}

/** Collects what the output leaves out, each with why. */
export class Omissions {
  readonly items: TranslationOmission[] = [];

  add(kind: TranslationOmission['kind'], path: string | null, reason: string): void {
    this.items.push({ kind, path, reason });
  }
}

/** A renderer: the table in one output format. Pure; reports what it cannot carry into `omissions`. */
export type Renderer = (table: TranslatedTable, omissions: Omissions) => string;
