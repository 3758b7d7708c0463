import {
  classifyVersionChange,
  COLUMN_ATTRIBUTES,
  comparableVersionOf,
  type SchemaVersion,
  type SchemaVersionDiff,
  TABLE_ATTRIBUTES,
  TABLE_CONSTRAINT_LISTS,
} from '@aide/schemas';
import { canonicalJson, itemKey } from './version-structure.js';

type Column = SchemaVersion['columns'][number];
type ListChanges<T> = { added: T[]; removed: T[]; changed: { from: T; to: T }[] };

/** Constraints and indexes matched by name (unnamed ones by their whole definition). */
function diffList<T extends { name: string | null }>(from: readonly T[], to: readonly T[]): ListChanges<T> {
  const before = new Map(from.map((item) => [itemKey(item), item]));
  const after = new Map(to.map((item) => [itemKey(item), item]));
  const changes: ListChanges<T> = { added: [], removed: [], changed: [] };
  for (const [key, item] of after) {
    const older = before.get(key);
    if (!older) changes.added.push(item);
    else if (canonicalJson(older) !== canonicalJson(item)) changes.changed.push({ from: older, to: item });
  }
  for (const [key, item] of before) if (!after.has(key)) changes.removed.push(item);
  return changes;
}

function valueChange<T>(from: T, to: T): { from: T; to: T } | null {
  return canonicalJson(from) === canonicalJson(to) ? null : { from, to };
}

/**
 * Compares two versions: columns by name (added, removed, type, nullability, position and each
 * attribute), the table's kind, comment, view definition and primary key, and its unique constraints,
 * foreign keys, indexes and checks; and the change classified compatible or breaking.
 */
export function diffVersions(from: SchemaVersion, to: SchemaVersion, flavor?: string): SchemaVersionDiff {
  const before = new Map(from.columns.map((c) => [c.name, c]));
  const after = new Map(to.columns.map((c) => [c.name, c]));
  const brief = (c: Column) => ({
    name: c.name,
    position: c.position,
    nullable: c.nullable,
    rendered_type: c.rendered_type,
    native_type: c.native_type,
  });
  const attributeChanges = Object.fromEntries(
    COLUMN_ATTRIBUTES.map((a) => [a, [] as { name: string; from: string | null; to: string | null }[]]),
  ) as Record<(typeof COLUMN_ATTRIBUTES)[number], { name: string; from: string | null; to: string | null }[]>;
  const diff = {
    dataset_id: to.dataset_id,
    from_version: from.version_num,
    to_version: to.version_num,
    added: to.columns.filter((c) => !before.has(c.name)).map(brief),
    removed: from.columns.filter((c) => !after.has(c.name)).map(brief),
    type_changed: [] as SchemaVersionDiff['type_changed'],
    nullability_changed: [] as SchemaVersionDiff['nullability_changed'],
    reordered: [] as SchemaVersionDiff['reordered'],
  };
  // Reordering is judged on the relative order of the columns both versions have.
  const keptBefore = from.columns.filter((c) => after.has(c.name)).map((c) => c.name);
  const keptAfter = to.columns.filter((c) => before.has(c.name)).map((c) => c.name);
  for (const [name, newer] of after) {
    const older = before.get(name);
    if (!older) continue;
    // Types compare by their trees; a column without a type by its native type (in native_type_changed).
    if (canonicalJson(typeShape(older)) !== canonicalJson(typeShape(newer))) {
      diff.type_changed.push({ name, from_type: older.rendered_type, to_type: newer.rendered_type });
    }
    if (older.nullable !== newer.nullable) {
      diff.nullability_changed.push({ name, from_nullable: older.nullable, to_nullable: newer.nullable });
    }
    if (keptBefore.indexOf(name) !== keptAfter.indexOf(name)) {
      diff.reordered.push({ name, from_position: older.position, to_position: newer.position });
    }
    for (const attribute of COLUMN_ATTRIBUTES) {
      if (older[attribute] !== newer[attribute]) {
        attributeChanges[attribute].push({ name, from: older[attribute], to: newer[attribute] });
      }
    }
  }
  const result: SchemaVersionDiff = {
    ...diff,
    native_type_changed: attributeChanges.native_type,
    default_changed: attributeChanges.default,
    comment_changed: attributeChanges.comment,
    identity_changed: attributeChanges.identity,
    generated_changed: attributeChanges.generated,
    collation_changed: attributeChanges.collation,
    table_kind_changed: valueChange(from.table_kind, to.table_kind),
    table_comment_changed: valueChange(from.table_comment, to.table_comment),
    view_definition_changed: valueChange(from.view_definition, to.view_definition),
    primary_key_changed: valueChange(from.primary_key, to.primary_key),
    unique_constraints_changed: diffList(from.unique_constraints, to.unique_constraints),
    foreign_keys_changed: diffList(from.foreign_keys, to.foreign_keys),
    indexes_changed: diffList(from.indexes, to.indexes),
    check_constraints_changed: diffList(from.check_constraints, to.check_constraints),
    identical: false,
    // Classified by the one classifier, as a publish of `to` over `from` is (ADR 0037).
    ...classifyVersionChange(
      comparableVersionOf(from),
      comparableVersionOf(to),
      flavor === undefined ? {} : { flavor },
    ),
  };
  result.identical =
    [
      result.added,
      result.removed,
      result.type_changed,
      result.nullability_changed,
      result.reordered,
      ...COLUMN_ATTRIBUTES.map((a) => attributeChanges[a]),
    ].every((list) => list.length === 0) &&
    TABLE_ATTRIBUTES.every((a) => result[`${a}_changed`] === null) &&
    TABLE_CONSTRAINT_LISTS.every((l) => {
      const c = result[`${l}_changed`];
      return c.added.length + c.removed.length + c.changed.length === 0;
    });
  // A side that cannot be read whole is compared by what could be read (trees, not texts) and named.
  if (from.read_error) result.from_read_error = from.read_error;
  if (to.read_error) result.to_read_error = to.read_error;
  return result;
}

/** A type tree without its instance ids: versions that share no tree compare equal when the types are. */
function typeShape(column: Column): unknown {
  const strip = (node: NonNullable<Column['type']>): unknown => ({
    data_type_id: node.data_type_id,
    type_params: node.type_params ?? {},
    slot: node.slot,
    children: node.children.map(strip),
  });
  return column.type ? strip(column.type) : null;
}
