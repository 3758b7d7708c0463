import type {
  CheckConstraint,
  ForeignKey,
  Index,
  PrimaryKey,
  PublishSchemaVersionSchema,
  SchemaVersionColumn,
  TableKind,
  UniqueConstraint,
} from '@aide/schemas';
import type { z } from 'zod';
import type { DatasetSchemaEntity } from '../dataset-schemas/dataset-schema.entity.js';
import type { FieldBindingEntity } from '../field-bindings/field-binding.entity.js';

// The crawler-visible structure of a version (ADR 0012) in its stored form, and the canonical texts
// the publish no-op rule compares: two versions are the same when their column texts and table texts
// are equal.

type PublishInput = z.output<typeof PublishSchemaVersionSchema>;
type PublishColumnInput = PublishInput['columns'][number];

/** The per-column attributes as field_bindings stores them. */
export type ColumnAttributes = Pick<
  FieldBindingEntity,
  'native_type' | 'default_expression' | 'comment' | 'identity' | 'generated_expression' | 'collation_name'
>;

/** The per-version attributes as dataset_schemas stores them (lists sorted). */
export interface TableStructure {
  table_kind: TableKind | null;
  table_comment: string | null;
  view_definition: string | null;
  primary_key: PrimaryKey | null;
  unique_constraints: UniqueConstraint[];
  foreign_keys: ForeignKey[];
  indexes: Index[];
  check_constraints: CheckConstraint[];
}

/** JSON with object keys sorted: equal values give equal texts. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** How a list item is matched between versions: its name, or its whole definition when unnamed. */
export function itemKey(item: { name: string | null }): string {
  return item.name !== null ? `n:${item.name}` : `d:${canonicalJson(item)}`;
}

/** Constraints and indexes form sets: stored in one order so that equal sets are equal JSON. */
function sorted<T extends { name: string | null }>(items: readonly T[]): T[] {
  return items
    .map((item) => ({ item, key: itemKey(item) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((e) => e.item);
}

export function columnAttributesOf(column: PublishColumnInput): ColumnAttributes {
  return {
    native_type: column.native_type ?? null,
    default_expression: column.default ?? null,
    comment: column.comment ?? null,
    identity: column.identity ?? null,
    generated_expression: column.generated ?? null,
    collation_name: column.collation ?? null,
  };
}

/** The attributes of a stored binding, without its other columns. */
export function columnAttributesOfRow(b: ColumnAttributes): ColumnAttributes {
  return {
    native_type: b.native_type,
    default_expression: b.default_expression,
    comment: b.comment,
    identity: b.identity,
    generated_expression: b.generated_expression,
    collation_name: b.collation_name,
  };
}

/** The wire form of a column's attributes. */
export function columnAttributesRead(
  b: ColumnAttributes,
): Pick<SchemaVersionColumn, 'native_type' | 'default' | 'comment' | 'identity' | 'generated' | 'collation'> {
  return {
    native_type: b.native_type,
    default: b.default_expression,
    comment: b.comment,
    identity: b.identity,
    generated: b.generated_expression,
    collation: b.collation_name,
  };
}

/**
 * The canonical text of one column: name, nullability, type and attributes, in a fixed order (the
 * attributes are never undefined: null when absent). Only compared in memory, never stored.
 */
export function columnText(
  column: { name: string; nullable: boolean; typeSignature: string | null },
  a: ColumnAttributes,
): string {
  return JSON.stringify([
    column.name,
    column.nullable,
    column.typeSignature,
    a.native_type,
    a.default_expression,
    a.comment,
    a.identity,
    a.generated_expression,
    a.collation_name,
  ]);
}

/** The stored structure of a publish input, its foreign keys already resolved to their targets. */
export function tableStructureOf(input: PublishInput, foreignKeys: ForeignKey[]): TableStructure {
  return {
    table_kind: input.table_kind ?? null,
    table_comment: input.table_comment ?? null,
    view_definition: input.view_definition ?? null,
    primary_key: input.primary_key ?? null,
    unique_constraints: sorted(input.unique_constraints ?? []),
    foreign_keys: sorted(foreignKeys),
    indexes: sorted(input.indexes ?? []),
    check_constraints: sorted(input.check_constraints ?? []),
  };
}

export function tableStructureOfEntity(e: DatasetSchemaEntity): TableStructure {
  return {
    table_kind: e.table_kind ?? null,
    table_comment: e.table_comment ?? null,
    view_definition: e.view_definition ?? null,
    primary_key: e.primary_key ?? null,
    unique_constraints: e.unique_constraints ?? [],
    foreign_keys: e.foreign_keys ?? [],
    indexes: e.indexes ?? [],
    check_constraints: e.check_constraints ?? [],
  };
}

export function tableText(structure: TableStructure): string {
  return canonicalJson(structure);
}
