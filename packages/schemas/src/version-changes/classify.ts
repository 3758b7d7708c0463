// The one classifier of schema changes (ADR 0037): every change from one version of a table to the
// next, each classed compatible or breaking for the dataset's existing readers and writers by fixed
// rules (the table in docs/crawler.md, "Compatible and breaking changes"). Plain functions, no I/O:
// the registry classifies what is published with it, the crawler what it reports, the UI what it shows.
import type { Compatibility, SchemaChange, VersionChange } from '../entities/version-change.js';
import type { ComparableColumn, ComparableVersion } from './comparable.js';
import { breaking, compatible } from './change-classes.js';
import { keyChanges } from './key-changes.js';
import { renderTypeNode } from './type-text.js';
import { sameType, widens } from './type-widening.js';

type Change = SchemaChange;
type VersionColumn = ComparableColumn;
type TableVersion = ComparableVersion;

/** Kinds a reader sees the same way: rows read the same from a table or a partitioned table. */
const STORED_KINDS: ReadonlySet<string> = new Set(['table', 'partitioned_table']);

const typeText = (column: VersionColumn) =>
  column.type === null
    ? (column.native_type ?? '')
    : column.native_type
      ? `${renderTypeNode(column.type)} (${column.native_type})`
      : renderTypeNode(column.type);

/**
 * How to classify, beyond the two versions: the dataset's flavor code, for the formats whose own
 * evolution rules differ from SQL's (absent or null: SQL's rules).
 */
export interface ClassifyOptions {
  flavor?: string | null;
}

/** The message formats: fields resolved by name (Avro, JSON Schema) or number (Protobuf), not position. */
const MESSAGE_FORMATS: ReadonlySet<string> = new Set(['avro', 'protobuf', 'json_schema']);

type Verdict = ReturnType<typeof compatible> | ReturnType<typeof breaking>;

/**
 * A field added to a message format's schema, by the format's own evolution rules: Avro schema
 * resolution fills a field missing from older records with the reader's default only (a union with
 * null gets no implicit null), Protobuf readers see an absent field's default value, and a JSON Schema
 * property is optional unless required (a nullable column: not in `required`).
 */
const ADDED_FIELD_RULES: Record<string, (column: VersionColumn) => Verdict> = {
  avro: (column) =>
    column.default !== null
      ? compatible(
          'FIELD_ADDED_WITH_DEFAULT',
          'a default: readers of older records fill it in (Avro schema resolution)',
        )
      : breaking(
          'FIELD_ADDED_WITHOUT_DEFAULT',
          'no default: readers of older records fail (Avro schema resolution)',
        ),
  protobuf: () =>
    compatible('FIELD_ADDED_OPTIONAL', 'readers of older messages see its default value (Protobuf)'),
  json_schema: (column) =>
    column.nullable || column.default !== null
      ? compatible(
          'FIELD_ADDED_OPTIONAL',
          'an optional property or one with a default: older documents do without it',
        )
      : breaking('FIELD_ADDED_REQUIRED', 'a required property: older documents lack it'),
};

/** A field removed from a message format's schema, by the format's own evolution rules. */
const REMOVED_FIELD_RULES: Record<string, (column: VersionColumn) => Verdict> = {
  avro: (column) =>
    column.default !== null
      ? breaking(
          'FIELD_REMOVED_WITH_DEFAULT',
          'readers of the field use their default (Avro schema resolution)',
        )
      : breaking(
          'FIELD_REMOVED_WITHOUT_DEFAULT',
          'old readers of new records fail: no default (Avro schema resolution)',
        ),
  protobuf: () =>
    breaking('FIELD_REMOVED_OPTIONAL', 'readers see its default value; its number must never be reused'),
  json_schema: (column) =>
    column.nullable
      ? breaking('FIELD_REMOVED_OPTIONAL', 'an optional property: old readers validate without it')
      : breaking('FIELD_REMOVED_REQUIRED', 'a required property: old readers refuse documents without it'),
};

function columnAdded(column: VersionColumn, flavor: string | null): Change {
  const formatRule = flavor === null ? undefined : ADDED_FIELD_RULES[flavor];
  if (formatRule !== undefined) {
    return {
      category: 'column_added',
      name: column.name,
      before: null,
      after: column,
      ...formatRule(column),
    };
  }
  const fillable =
    column.nullable || column.default !== null || column.identity !== null || column.generated !== null;
  return {
    category: 'column_added',
    name: column.name,
    before: null,
    after: column,
    ...(fillable
      ? compatible(
          'COLUMN_ADDED_OPTIONAL',
          column.nullable ? 'a nullable column' : 'NOT NULL with a default or generated value',
        )
      : breaking('COLUMN_ADDED_REQUIRED', 'NOT NULL without a default: inserts that omit it fail')),
  };
}

function columnRemoved(column: VersionColumn, flavor: string | null): Verdict {
  const formatRule = flavor === null ? undefined : REMOVED_FIELD_RULES[flavor];
  return formatRule !== undefined
    ? formatRule(column)
    : breaking('COLUMN_REMOVED', 'readers of the column fail');
}

/** A column's type as a type change records it: the tree, the native text, the registry's text. */
const typeSide = (column: VersionColumn) => ({
  type: column.type,
  native_type: column.native_type,
  ...(column.rendered_type === undefined || column.rendered_type === null
    ? {}
    : { rendered_type: column.rendered_type }),
});

function typeChange(before: VersionColumn, after: VersionColumn): Change | null {
  if (sameType(before.type, after.type) && before.native_type === after.native_type) return null;
  const change = {
    category: 'type_changed' as const,
    name: after.name,
    before: typeSide(before),
    after: typeSide(after),
  };
  if (before.type !== null && after.type !== null && sameType(before.type, after.type)) {
    return { ...change, ...compatible('TYPE_SAME', 'the same type; only the native text differs') };
  }
  if (before.type !== null && after.type !== null && widens(before.type, after.type)) {
    return { ...change, ...compatible('TYPE_WIDENED', `widens ${typeText(before)} to ${typeText(after)}`) };
  }
  const narrows = before.type !== null && after.type !== null && widens(after.type, before.type);
  return {
    ...change,
    ...breaking(
      narrows ? 'TYPE_NARROWED' : 'TYPE_CHANGED',
      `${typeText(before)} to ${typeText(after)} does not keep every value`,
    ),
  };
}

function columnChanges(before: VersionColumn, after: VersionColumn, flavor: string | null): Change[] {
  const changes: Change[] = [];
  const name = after.name;
  const type = typeChange(before, after);
  if (type !== null) changes.push(type);
  if (before.nullable !== after.nullable) {
    changes.push({
      category: 'nullability_changed',
      name,
      before: before.nullable,
      after: after.nullable,
      ...(after.nullable
        ? compatible('NULLABILITY_RELAXED', 'NOT NULL dropped')
        : breaking(
            'NULLABILITY_TIGHTENED',
            'made NOT NULL: writes of nulls fail and existing nulls block it',
          )),
    });
  }
  if (before.default !== after.default) {
    // A message format's default only fills fields missing from a record: no writer depends on it.
    const unfilled =
      after.default === null &&
      !after.nullable &&
      after.identity === null &&
      after.generated === null &&
      !(flavor !== null && MESSAGE_FORMATS.has(flavor));
    changes.push({
      category: 'default_changed',
      name,
      before: before.default,
      after: after.default,
      ...(unfilled
        ? breaking(
            'DEFAULT_DROPPED_REQUIRED',
            'default dropped on a NOT NULL column: inserts that omit it fail',
          )
        : compatible('DEFAULT_CHANGED', 'a different default only affects new rows')),
    });
  }
  if (before.identity !== after.identity) {
    changes.push({
      category: 'identity_changed',
      name,
      before: before.identity,
      after: after.identity,
      ...(after.identity === 'always'
        ? breaking('IDENTITY_ALWAYS', 'GENERATED ALWAYS: inserts of explicit values are refused')
        : after.identity === null && !after.nullable && after.default === null
          ? breaking(
              'IDENTITY_DROPPED_REQUIRED',
              'identity dropped on a NOT NULL column: inserts that omit it fail',
            )
          : compatible('IDENTITY_CHANGED', 'inserts keep working')),
    });
  }
  if (before.generated !== after.generated) {
    changes.push({
      category: 'generated_changed',
      name,
      before: before.generated,
      after: after.generated,
      ...(after.generated === null
        ? compatible('GENERATED_DROPPED', 'no longer generated: the column becomes writable')
        : before.generated === null
          ? breaking('GENERATED_ADDED', 'now generated: writes to it fail')
          : breaking('GENERATED_CHANGED', 'computed differently')),
    });
  }
  if (before.collation !== after.collation) {
    changes.push({
      category: 'collation_changed',
      name,
      before: before.collation,
      after: after.collation,
      ...breaking('COLLATION_CHANGED', 'comparisons, sorting and uniqueness follow the new collation'),
    });
  }
  if (before.comment !== after.comment) {
    changes.push({
      category: 'comment_changed',
      name,
      before: before.comment,
      after: after.comment,
      ...compatible('DOCUMENTATION_CHANGED', 'documentation only'),
    });
  }
  return changes;
}

/**
 * A version's columns by name, built once per version object: a transitive compatibility check
 * (ADR 0048) compares one target with a hundred earlier versions, each kept parsed across requests.
 */
const columnsByName = new WeakMap<TableVersion, ReadonlyMap<string, VersionColumn>>();
function byName(version: TableVersion): ReadonlyMap<string, VersionColumn> {
  let names = columnsByName.get(version);
  if (names === undefined) {
    names = new Map(version.columns.map((c) => [c.name, c]));
    columnsByName.set(version, names);
  }
  return names;
}

/** A version's column positions by name, built once per version object (as `byName`). */
const columnPositions = new WeakMap<TableVersion, ReadonlyMap<string, number>>();
function positionsOf(version: TableVersion): ReadonlyMap<string, number> {
  let positions = columnPositions.get(version);
  if (positions === undefined) {
    positions = new Map(version.columns.map((c, i) => [c.name, i]));
    columnPositions.set(version, positions);
  }
  return positions;
}

/**
 * The columns present on both sides whose relative order changed: those outside a longest common
 * ordering (a column added or removed elsewhere does not move the others).
 */
function movedColumns(base: TableVersion, target: TableVersion): Set<string> {
  const targetIndex = positionsOf(target);
  const sequence: number[] = [];
  for (const column of base.columns) {
    const i = targetIndex.get(column.name);
    if (i !== undefined) sequence.push(i);
  }
  // The common case: nothing moved (every column keeps its relative order).
  if (sequence.every((value, i) => i === 0 || sequence[i - 1] < value)) return new Set();
  // Longest increasing subsequence (patience sorting), keeping predecessors to rebuild it.
  const tails: number[] = [];
  const tailAt: number[] = [];
  const previous: number[] = new Array<number>(sequence.length).fill(-1);
  sequence.forEach((value, i) => {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (tails[mid] < value) lo = mid + 1;
      else hi = mid;
    }
    tails[lo] = value;
    tailAt[lo] = i;
    previous[i] = lo > 0 ? tailAt[lo - 1] : -1;
  });
  const kept = new Set<number>();
  for (let i = tailAt[tails.length - 1] ?? -1; i >= 0; i = previous[i]) {
    kept.add(sequence[i]);
  }
  return new Set(sequence.filter((value) => !kept.has(value)).map((value) => target.columns[value].name));
}

/** Every change from one version (`base`) to the next (`target`), each classified. */
export function classifyChanges(
  base: ComparableVersion,
  target: ComparableVersion,
  options: ClassifyOptions = {},
): Change[] {
  return [
    ...tableChanges(base, target),
    ...columnSetChanges(base, target, options.flavor ?? null),
    ...columnEdits(base, target, options.flavor ?? null),
    ...keyChanges(base, target),
  ];
}

/** The table's own changes: its kind, its comment, a view's definition. */
function tableChanges(base: TableVersion, target: TableVersion): Change[] {
  const changes: Change[] = [];
  const baseKind = base.table_kind ?? 'table';
  const targetKind = target.table_kind ?? 'table';
  if (baseKind !== targetKind) {
    const bothStored = STORED_KINDS.has(baseKind) && STORED_KINDS.has(targetKind);
    changes.push({
      category: 'table_kind_changed',
      name: null,
      before: baseKind,
      after: targetKind,
      ...(bothStored
        ? compatible('TABLE_KIND_STORED', 'rows are read the same way')
        : breaking('TABLE_KIND_CHANGED', `a ${baseKind} became a ${targetKind}`)),
    });
  }
  if (base.table_comment !== target.table_comment) {
    changes.push({
      category: 'table_comment_changed',
      name: null,
      before: base.table_comment,
      after: target.table_comment,
      ...compatible('DOCUMENTATION_CHANGED', 'documentation only'),
    });
  }
  if (base.view_definition !== target.view_definition) {
    changes.push({
      category: 'view_definition_changed',
      name: null,
      before: base.view_definition,
      after: target.view_definition,
      ...compatible('VIEW_DEFINITION_CHANGED', 'the columns it yields are compared one by one'),
    });
  }
  return changes;
}

/**
 * The columns removed, then the columns added. A removed and an added column of the same type at the
 * same position: flagged as a possible rename, still a removal and an addition.
 */
function columnSetChanges(base: TableVersion, target: TableVersion, flavor: string | null): Change[] {
  const changes: Change[] = [];
  const baseByName = byName(base);
  const targetByName = byName(target);
  const removed = base.columns.filter((c) => !targetByName.has(c.name));
  const added = target.columns.filter((c) => !baseByName.has(c.name));
  const renames = new Map<string, string>();
  for (const gone of removed) {
    const position = base.columns.indexOf(gone);
    const candidate = target.columns[position];
    if (
      candidate !== undefined &&
      !baseByName.has(candidate.name) &&
      gone.native_type === candidate.native_type &&
      sameType(gone.type, candidate.type)
    ) {
      renames.set(gone.name, candidate.name);
    }
  }
  for (const gone of removed) {
    const to = renames.get(gone.name);
    changes.push({
      category: 'column_removed',
      name: gone.name,
      before: gone,
      after: null,
      ...columnRemoved(gone, flavor),
      ...(to === undefined ? {} : { possible_rename: { from: gone.name, to } }),
    });
  }
  const renamedTo = new Map([...renames].map(([from, to]) => [to, from]));
  for (const column of added) {
    const from = renamedTo.get(column.name);
    changes.push({
      ...columnAdded(column, flavor),
      ...(from === undefined ? {} : { possible_rename: { from, to: column.name } }),
    });
  }
  return changes;
}

/** The columns on both sides: moved (relative order), then each one's own changes, in target order. */
function columnEdits(base: TableVersion, target: TableVersion, flavor: string | null): Change[] {
  const changes: Change[] = [];
  const baseByName = byName(base);
  const moved = movedColumns(base, target);
  target.columns.forEach((column, index) => {
    const before = baseByName.get(column.name);
    if (before === undefined) return;
    if (moved.has(column.name)) {
      changes.push({
        category: 'column_moved',
        name: column.name,
        before: base.columns.indexOf(before) + 1,
        after: index + 1,
        ...(flavor !== null && MESSAGE_FORMATS.has(flavor)
          ? compatible('FIELD_MOVED', 'fields are resolved by name or number, not position')
          : breaking('COLUMN_MOVED', 'readers by position (SELECT *, COPY, exports) see another order')),
      });
    }
    changes.push(...columnChanges(before, column, flavor));
  });
  return changes;
}

/** The worst class among the changes; null when there are none. */
export const worstCompatibility = (changes: readonly Change[]): Compatibility | null =>
  changes.length === 0
    ? null
    : changes.some((c) => c.compatibility === 'breaking')
      ? 'breaking'
      : 'compatible';

/** A table's first version: one change, the table added (compatible). */
export function tableAdded(target: ComparableVersion): Change {
  return {
    category: 'table_added',
    name: null,
    before: null,
    after: target.table_kind ?? 'table',
    ...compatible('TABLE_ADDED', 'a new dataset'),
  };
}

/** A dataset its source no longer has (a crawl reports it; nothing is published): breaking both ways. */
export function tableRemoved(kind: ComparableVersion['table_kind'] | null): Change {
  return {
    category: 'table_removed',
    name: null,
    before: kind ?? null,
    after: null,
    ...breaking('TABLE_REMOVED', 'readers of the dataset fail'),
  };
}

/**
 * The registry's classification of a version published over `base` (null: the dataset's first
 * version): every change, and the worst class among them.
 */
export function classifyVersionChange(
  base: ComparableVersion | null,
  target: ComparableVersion,
  options: ClassifyOptions = {},
): VersionChange {
  const changes = base === null ? [tableAdded(target)] : classifyChanges(base, target, options);
  return { compatibility: worstCompatibility(changes), changes };
}
