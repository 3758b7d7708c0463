// `apply`'s writes, through the registry's batch routes (the SDK sends them in chunks of at most 500
// items under the body limit): missing datasets created (`POST /datasets/bulk`), then every version
// published (`POST /schema-versions/bulk`), each dataset on its own and checked by the server against
// the report's base version.
import type { BulkPublishItem, CreateDataset, PublishColumn } from '@aide/schemas';
import type { AideClient } from '@aide/sdk';
import type { ApplyItem } from '../commands/apply.js';
import type { DatasetDiff } from '../diff/diff.js';
import type { CrawlReport } from '../report/report.js';
import { throwIfInterrupted } from '../errors.js';
import { registryCall } from './client.js';
import type { TableVersion } from './model.js';

export interface PublishOutcome {
  /**
   * object_name → why it failed (other than a stale base, which turns the item `stale`): the map
   * given, which also holds the failures so far when an interrupt stops the publishing.
   */
  failures: Map<string, string>;
}

function createBody(systemId: string, report: CrawlReport, diff: DatasetDiff): CreateDataset {
  const kind = diff.target?.table_kind;
  return {
    kind: 'rdbms',
    system_id: systemId,
    object_name: diff.object_name,
    catalog_name: report.source.database === '' ? null : report.source.database,
    schema_name: diff.schema,
    table_name: diff.table,
    is_view: kind === 'view' || kind === 'materialized_view',
    pk_columns: diff.target?.primary_key?.columns ?? null,
  };
}

/** The publish body of a version: every column attribute and the table's structure. */
export function publishBody(version: TableVersion): Omit<BulkPublishItem, 'dataset_id' | 'base_version_num'> {
  return {
    columns: version.columns.map((c): PublishColumn => ({
      name: c.name,
      nullable: c.nullable,
      type: c.type,
      native_type: c.native_type,
      default: c.default,
      comment: c.comment,
      identity: c.identity,
      generated: c.generated,
      collation: c.collation,
    })),
    table_kind: version.table_kind,
    table_comment: version.table_comment,
    view_definition: version.view_definition,
    primary_key: version.primary_key,
    unique_constraints: version.unique_constraints,
    foreign_keys: version.foreign_keys.map((fk) => ({
      name: fk.name,
      columns: fk.columns,
      referenced: {
        schema: fk.referenced.schema,
        table: fk.referenced.table,
        columns: fk.referenced.columns,
      },
      on_update: fk.on_update,
      on_delete: fk.on_delete,
    })),
    indexes: version.indexes,
    check_constraints: version.check_constraints,
  };
}

/**
 * Creates and publishes the `create` and `publish` items of a plan, updating each item with its
 * dataset id, the version written and, when the server found the base stale, `stale`.
 */
export async function applyItems(
  client: AideClient,
  systemId: string,
  report: CrawlReport,
  items: ApplyItem[],
  failures = new Map<string, string>(),
  signal?: AbortSignal,
): Promise<PublishOutcome> {
  const diffs = new Map(report.datasets.map((d) => [d.object_name, d]));
  const diffOf = (item: ApplyItem) => diffs.get(item.object_name) as DatasetDiff;

  const toCreate = items.filter((i) => i.action === 'create');
  if (toCreate.length > 0) {
    const created = await registryCall('create the new datasets', () =>
      client.datasets.bulkCreate(toCreate.map((item) => createBody(systemId, report, diffOf(item)))),
    );
    created.items.forEach((r, i) => {
      const item = toCreate[i];
      const existing = r.error?.details?.['dataset_id'];
      if (r.dataset !== null) item.dataset_id = r.dataset.id;
      else if (r.error?.error_code === 'DATASET_ALREADY_EXISTS' && typeof existing === 'string') {
        item.dataset_id = existing;
      } else failures.set(item.object_name, `${r.error?.error_code ?? 'FAILED'}: ${r.error?.detail ?? ''}`);
    });
  }

  // Interrupted between the two batches: the datasets created so far stay (and are recorded).
  throwIfInterrupted(signal);
  const toPublish = items.filter(
    (i) =>
      (i.action === 'create' || i.action === 'publish') &&
      i.dataset_id !== null &&
      !failures.has(i.object_name),
  );
  if (toPublish.length > 0) {
    const published = await registryCall('publish the new versions', () =>
      client.datasets.bulkPublish(
        toPublish.map((item) => ({
          dataset_id: item.dataset_id as string,
          base_version_num: item.base_version_num,
          ...publishBody(diffOf(item).target as TableVersion),
        })),
      ),
    );
    published.items.forEach((r, i) => {
      const item = toPublish[i];
      if (r.status === 'created') {
        item.version_num = r.version_num;
      } else if (r.status === 'unchanged') {
        item.action = 'already_applied';
        item.version_num = r.version_num;
      } else if (r.error?.error_code === 'VERSION_CONFLICT') {
        item.action = 'stale';
        item.detail = `the registry moved past the report's base version (${r.error.detail}): crawl again`;
      } else {
        failures.set(item.object_name, `${r.error?.error_code ?? 'FAILED'}: ${r.error?.detail ?? ''}`);
      }
    });
  }
  return { failures };
}
