// What differs between a hint group's stored hints and the document's: per column (added, removed, each
// field changed), and when nothing else differs, their order.
import { type DataCoolieImportChange, SNAPSHOT_HINT_FIELDS } from '@aide/schemas';
import { casefold } from '@aide/schemas/datacoolie';
import type { StoredHintColumn } from './datacoolie-import.repository.js';
import { fieldChange } from './plan-changes.js';

/** What a hint carries besides its column name, in DataCoolie's order. */
const HINT_FIELDS = SNAPSHOT_HINT_FIELDS.filter(
  (f): f is Exclude<(typeof SNAPSHOT_HINT_FIELDS)[number], 'column_name'> => f !== 'column_name',
);

export function hintChanges(
  before: readonly StoredHintColumnLike[],
  after: readonly StoredHintColumnLike[],
): DataCoolieImportChange[] {
  const find = (list: readonly StoredHintColumnLike[], name: string) =>
    list.find((h) => casefold(h.column_name) === casefold(name));
  const changes: DataCoolieImportChange[] = [];
  for (const hint of after) {
    const old = find(before, hint.column_name);
    if (!old) {
      changes.push({ field: `hints.${hint.column_name}`, before: null, after: hintOf(hint) });
      continue;
    }
    changes.push(...fieldChange(`hints.${hint.column_name}.column_name`, old.column_name, hint.column_name));
    for (const f of HINT_FIELDS)
      changes.push(...fieldChange(`hints.${hint.column_name}.${f}`, old[f], hint[f]));
  }
  for (const old of before) {
    if (!find(after, old.column_name)) {
      changes.push({ field: `hints.${old.column_name}`, before: hintOf(old), after: null });
    }
  }
  // Their order as served: stable by ordinal_position, nulls last (DataCoolie's order). A document
  // that lists the same hints in another order that sorts the same (an export) changes nothing.
  const names = (list: readonly StoredHintColumnLike[]) =>
    [...list]
      .sort((a, b) =>
        a.ordinal_position === b.ordinal_position
          ? 0
          : a.ordinal_position === null
            ? 1
            : b.ordinal_position === null
              ? -1
              : a.ordinal_position - b.ordinal_position,
      )
      .map((h) => casefold(h.column_name));
  if (changes.length === 0) changes.push(...fieldChange('hints', names(before), names(after)));
  return changes;
}

type StoredHintColumnLike = Pick<StoredHintColumn, 'column_name' | (typeof HINT_FIELDS)[number]>;

function hintOf(h: StoredHintColumnLike) {
  return {
    column_name: h.column_name,
    data_type: h.data_type,
    format: h.format,
    precision: h.precision,
    scale: h.scale,
    default_value: h.default_value,
    ordinal_position: h.ordinal_position,
    is_active: h.is_active,
  };
}
