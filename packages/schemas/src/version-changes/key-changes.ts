// The changes of a version's keys, indexes and checks (classify.ts, the one classifier of ADR 0037):
// each kind matched by what identifies it, then classed by the rules in docs/crawler.md, "Compatible
// and breaking changes".
import type { SchemaChange } from '../entities/version-change.js';
import type {
  ComparableForeignKey,
  ComparableIndex,
  ComparableKey,
  ComparableVersion,
} from './comparable.js';
import { breaking, compatible } from './change-classes.js';

type Change = SchemaChange;
type TableVersion = ComparableVersion;
type VersionForeignKey = ComparableForeignKey;
type VersionIndex = ComparableIndex;

const sameList = (a: readonly string[] | null, b: readonly string[] | null) =>
  a === null || b === null ? a === b : a.length === b.length && a.every((x, i) => x === b[i]);

/** The changes of the primary key, the unique constraints, foreign keys, indexes and checks, in that order. */
export function keyChanges(base: TableVersion, target: TableVersion): Change[] {
  return [
    ...primaryKeyChanges(base, target),
    ...uniqueChanges(base, target),
    ...foreignKeyChanges(base, target),
    ...indexChanges(base, target),
    ...checkChanges(base, target),
  ];
}

/** Other columns: a new row identity; the same columns under another name: a rename. */
function primaryKeyChanges(base: TableVersion, target: TableVersion): Change[] {
  const changes: Change[] = [];
  const pkBefore = base.primary_key;
  const pkAfter = target.primary_key;
  if (!sameList(pkBefore?.columns ?? null, pkAfter?.columns ?? null)) {
    changes.push({
      category: 'primary_key_changed',
      name: pkAfter?.name ?? pkBefore?.name ?? null,
      before: pkBefore,
      after: pkAfter,
      ...breaking('PRIMARY_KEY_CHANGED', 'the row identity changed'),
    });
  } else if (pkBefore !== null && pkAfter !== null && pkBefore.name !== pkAfter.name) {
    changes.push(renamed(pkBefore.name, pkAfter.name));
  }
  return changes;
}

/** Unique constraints, matched by their columns. */
function uniqueChanges(base: TableVersion, target: TableVersion): Change[] {
  const changes: Change[] = [];
  const uniqueKey = (key: ComparableKey) => JSON.stringify(key.columns);
  matchBy(base.unique_constraints, target.unique_constraints, uniqueKey, {
    added: (key) =>
      changes.push({
        category: 'unique_added',
        name: key.name,
        before: null,
        after: key,
        ...breaking('UNIQUE_ADDED', 'writes of duplicates now fail'),
      }),
    removed: (key) =>
      changes.push({
        category: 'unique_removed',
        name: key.name,
        before: key,
        after: null,
        ...breaking('UNIQUE_REMOVED', 'readers relying on uniqueness may see duplicates'),
      }),
    both: (before, after) => {
      if (before.name !== after.name) changes.push(renamed(before.name, after.name));
    },
  });
  return changes;
}

/** Foreign keys, matched by their columns and what they reference. */
function foreignKeyChanges(base: TableVersion, target: TableVersion): Change[] {
  const changes: Change[] = [];
  const fkKey = (fk: VersionForeignKey) =>
    JSON.stringify([fk.columns, fk.referenced.schema, fk.referenced.table, fk.referenced.columns]);
  matchBy(base.foreign_keys, target.foreign_keys, fkKey, {
    added: (fk) =>
      changes.push({
        category: 'foreign_key_added',
        name: fk.name,
        before: null,
        after: fk,
        ...breaking('FOREIGN_KEY_ADDED', 'writes that break the reference now fail'),
      }),
    removed: (fk) =>
      changes.push({
        category: 'foreign_key_removed',
        name: fk.name,
        before: fk,
        after: null,
        ...breaking('FOREIGN_KEY_REMOVED', 'readers joining on it may find dangling rows'),
      }),
    both: (before, after) => {
      if (before.on_update !== after.on_update || before.on_delete !== after.on_delete) {
        changes.push({
          category: 'foreign_key_changed',
          name: after.name,
          before,
          after,
          ...breaking(
            'FOREIGN_KEY_CHANGED',
            'referential actions changed: deletes and updates behave differently',
          ),
        });
      } else if (before.name !== after.name) {
        changes.push(renamed(before.name, after.name));
      }
    },
  });
  return changes;
}

/** Indexes, matched by name: a unique one is a rule for writers, any other performance only. */
function indexChanges(base: TableVersion, target: TableVersion): Change[] {
  const changes: Change[] = [];
  matchBy(base.indexes, target.indexes, (index) => index.name, {
    added: (index) =>
      changes.push({
        category: 'index_added',
        name: index.name,
        before: null,
        after: index,
        ...(index.unique
          ? breaking('UNIQUE_ADDED', 'a unique index: writes of duplicates now fail')
          : compatible('INDEX_CHANGED', 'performance only')),
      }),
    removed: (index) =>
      changes.push({
        category: 'index_removed',
        name: index.name,
        before: index,
        after: null,
        ...(index.unique
          ? breaking('UNIQUE_REMOVED', 'a unique index: readers relying on uniqueness may see duplicates')
          : compatible('INDEX_CHANGED', 'performance only')),
      }),
    both: (before, after) => {
      if (sameIndex(before, after)) return;
      changes.push({
        category: 'index_changed',
        name: after.name,
        before,
        after,
        ...(before.unique || after.unique
          ? breaking('UNIQUE_CHANGED', 'a unique index changed: what counts as a duplicate changed')
          : compatible('INDEX_CHANGED', 'performance only')),
      });
    },
  });
  return changes;
}

/** Checks by name; unnamed ones (SQLite) by their expression. */
function checkChanges(base: TableVersion, target: TableVersion): Change[] {
  const changes: Change[] = [];
  matchBy(
    base.check_constraints,
    target.check_constraints,
    (check) => check.name ?? `(${check.expression})`,
    {
      added: (check) =>
        changes.push({
          category: 'check_added',
          name: check.name,
          before: null,
          after: check,
          ...breaking('CHECK_ADDED', 'writes outside the check now fail'),
        }),
      removed: (check) =>
        changes.push({
          category: 'check_removed',
          name: check.name,
          before: check,
          after: null,
          ...breaking('CHECK_REMOVED', 'readers relying on the check may see other values'),
        }),
      both: (before, after) => {
        if (before.expression === after.expression) return;
        changes.push({
          category: 'check_changed',
          name: after.name,
          before,
          after,
          ...breaking('CHECK_CHANGED', 'the values allowed changed'),
        });
      },
    },
  );
  return changes;
}

function sameIndex(a: VersionIndex, b: VersionIndex): boolean {
  return (
    a.unique === b.unique &&
    a.method === b.method &&
    a.expression === b.expression &&
    a.predicate === b.predicate &&
    a.definition === b.definition &&
    sameList(a.columns, b.columns) &&
    sameList(a.include, b.include)
  );
}

function renamed(before: string | null, after: string | null): Change {
  return {
    category: 'constraint_renamed',
    name: after,
    before,
    after,
    ...compatible('CONSTRAINT_RENAMED', 'a new name for the same constraint'),
  };
}

/** Pairs two lists by key and calls back for the unmatched and the matched items, in list order. */
function matchBy<T>(
  base: readonly T[],
  target: readonly T[],
  key: (item: T) => string,
  on: { added: (item: T) => void; removed: (item: T) => void; both: (before: T, after: T) => void },
): void {
  const baseByKey = new Map(base.map((item) => [key(item), item]));
  const targetKeys = new Set(target.map(key));
  for (const item of base) if (!targetKeys.has(key(item))) on.removed(item);
  for (const item of target) {
    const before = baseByKey.get(key(item));
    if (before === undefined) on.added(item);
    else on.both(before, item);
  }
}
