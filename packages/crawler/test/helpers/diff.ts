// Diffs between two inspections of the same real database, before and after DDL: the first
// inspection stands for what the registry holds (the version a crawl would have published).
import { randomUUID } from 'node:crypto';
import { expect } from '@jest/globals';
import { diffSystem, type Change, type ChangeCategory, type DatasetDiff } from '../../src/diff/diff.js';
import type { InspectedDatabase } from '../../src/model.js';
import { objectName, versionOfTable, type RegistryDataset } from '../../src/registry/model.js';

/** The registry's datasets as a publish of every table of `db` would have left them (version 1). */
export function registeredFrom(db: InspectedDatabase): RegistryDataset[] {
  return db.tables.map((table) => ({
    dataset_id: randomUUID(),
    object_name: objectName(table.schema, table.name),
    schema: table.schema,
    table: table.name,
    version_num: 1,
    version: versionOfTable(table),
  }));
}

/** The diff of `after` against a registry holding `before`, every registered table in scope. */
export function diffInspections(before: InspectedDatabase, after: InspectedDatabase): DatasetDiff[] {
  return diffSystem(after.tables, registeredFrom(before), () => true);
}

export function datasetDiff(diffs: readonly DatasetDiff[], schema: string, table: string): DatasetDiff {
  const found = diffs.find((d) => d.schema === schema && d.table === table);
  if (found === undefined) throw new Error(`no diff for ${schema}.${table}`);
  return found;
}

/** The one change of a category (and name) in a dataset's diff, asserted to exist exactly once. */
export function change(diff: DatasetDiff, category: ChangeCategory, name?: string | null): Change {
  const found = diff.changes.filter(
    (c) => c.category === category && (name === undefined || c.name === name),
  );
  expect(found.map((c) => [c.category, c.name])).toEqual([[category, found[0]?.name ?? name ?? null]]);
  return found[0];
}
