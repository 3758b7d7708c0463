// The diff between the registry's view of a system and a database's inspection: plain functions, no
// I/O. Every change carries its class for downstream readers (compatible or breaking), given by the one
// classifier of `@aide/schemas` (ADR 0037) that the registry also applies to what it publishes; the
// rules are the table in docs/crawler.md, "Compatible and breaking changes".
import {
  CHANGE_CATEGORIES,
  classifyChanges,
  tableAdded,
  tableRemoved,
  worstCompatibility,
  type ChangeCategory,
  type Compatibility,
  type SchemaChange,
} from '@aide/schemas/version-changes';
import type { DatasetPlacement, InspectedTable } from '../model.js';
import { compareText } from '../normalise/type-log.js';
import {
  datasetKey,
  refOfTable,
  versionOfTable,
  type DatasetRef,
  type RegistryDataset,
  type TableVersion,
} from '../registry/model.js';

export type { ChangeCategory, Compatibility };
/** `diffVersions(base, target)`: every change from the registry's version to the database's. */
export { CHANGE_CATEGORIES, classifyChanges as diffVersions };

/** A classified change (the shape of `@aide/schemas`' one classifier). */
export type Change = SchemaChange;

export type DatasetStatus = 'new' | 'changed' | 'removed' | 'unchanged';

export interface DatasetDiff extends DatasetRef {
  /**
   * What a new dataset of a non-database source is created with (kind, object_name, attributes,
   * flavor): set on its new and changed datasets, absent for database tables.
   */
  placement?: DatasetPlacement;
  /** `new`: no version in the registry (with `dataset_id` null, no dataset either). */
  status: DatasetStatus;
  dataset_id: string | null;
  /** The registry version the changes were computed from; null for a dataset without a version. */
  base_version_num: number | null;
  /** The worst class among the changes; null when unchanged. */
  compatibility: Compatibility | null;
  changes: Change[];
  /** The version to publish (`new`, `changed`); null otherwise. */
  target: TableVersion | null;
}

/** The diff of one crawled table against its registry dataset (undefined when the registry has none). */
export function diffTable(table: InspectedTable, registered: RegistryDataset | undefined): DatasetDiff {
  const head: DatasetRef & Pick<DatasetDiff, 'placement'> =
    table.placement === undefined ? refOfTable(table) : { ...refOfTable(table), placement: table.placement };
  if (registered?.unchanged === true) {
    return {
      ...head,
      status: 'unchanged',
      dataset_id: registered.dataset_id,
      base_version_num: registered.version_num,
      compatibility: null,
      changes: [],
      target: null,
    };
  }
  const target = versionOfTable(table);
  if (registered === undefined || registered.version === null) {
    const changes: Change[] = [tableAdded(target)];
    return {
      ...head,
      status: 'new',
      dataset_id: registered?.dataset_id ?? null,
      base_version_num: null,
      compatibility: 'compatible',
      changes,
      target,
    };
  }
  // A format's own evolution rules (Avro, Protobuf) apply to its datasets.
  const flavor = table.placement?.flavor;
  const changes = classifyChanges(registered.version, target, flavor === undefined ? {} : { flavor });
  return {
    ...head,
    status: changes.length === 0 ? 'unchanged' : 'changed',
    dataset_id: registered.dataset_id,
    base_version_num: registered.version_num,
    compatibility: worstCompatibility(changes),
    changes,
    target: changes.length === 0 ? null : target,
  };
}

/**
 * The diff of a whole crawl: every inspected table against the registry's datasets of the system, and
 * the registered datasets within the crawl's scope that the database no longer has (reported, never
 * deleted). Sorted by schema, then table.
 */
export function diffSystem(
  tables: readonly InspectedTable[],
  registry: readonly RegistryDataset[],
  inScope: (dataset: DatasetRef) => boolean,
): DatasetDiff[] {
  const registered = new Map(registry.map((d) => [datasetKey(d), d]));
  const crawled = new Set<string>();
  const diffs: DatasetDiff[] = [];
  for (const table of tables) {
    const k = datasetKey(refOfTable(table));
    crawled.add(k);
    diffs.push(diffTable(table, registered.get(k)));
  }
  for (const dataset of registry) {
    if (crawled.has(datasetKey(dataset)) || !inScope(dataset)) continue;
    diffs.push({
      ...(dataset.kind === undefined || dataset.kind === 'rdbms' ? {} : { kind: dataset.kind }),
      object_name: dataset.object_name,
      schema: dataset.schema,
      table: dataset.table,
      status: 'removed',
      dataset_id: dataset.dataset_id,
      base_version_num: dataset.version_num,
      compatibility: 'breaking',
      changes: [tableRemoved(dataset.version?.table_kind ?? null)],
      target: null,
    });
  }
  return diffs.sort((a, b) => compareText(a.schema, b.schema) || compareText(a.table, b.table));
}
