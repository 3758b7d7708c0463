// The registry's side of a system, read in bulk: the system snapshot route, cursor-paged (1,000
// datasets a page), turned into the versions the diff compares. Never one request per dataset.
import type { Dataset, SchemaVersion, SnapshotDataset, TypeInstanceTree } from '@aide/schemas';
import type { AideClient } from '@aide/sdk';
import type { TypeNode } from '../model.js';
import { registryCall } from './client.js';
import type { RegistryDataset, TableVersion, VersionColumn } from './model.js';

/** Datasets per snapshot page: the route's maximum, so 10,000 tables are 10 requests. */
export const SNAPSHOT_PAGE_SIZE = 1000;

type RdbmsDataset = Extract<Dataset, { kind: 'rdbms' }>;

/** A stored type tree as the crawler's type node: code, declared params, children by slot. */
export function typeNodeOf(tree: TypeInstanceTree): TypeNode {
  const node: TypeNode = { data_type: tree.data_type_code };
  const params = Object.entries(tree.type_params ?? {}).filter(
    (entry): entry is [string, string | number | boolean] =>
      ['string', 'number', 'boolean'].includes(typeof entry[1]),
  );
  if (params.length > 0) node.params = Object.fromEntries(params);
  if (tree.children.length > 0) {
    node.children = tree.children.map((child) => ({ slot: child.slot ?? '', type: typeNodeOf(child) }));
  }
  return node;
}

function versionColumn(column: SchemaVersion['columns'][number]): VersionColumn {
  return {
    name: column.name,
    nullable: column.nullable,
    type: column.type === null ? null : typeNodeOf(column.type),
    native_type: column.native_type ?? '',
    default: column.default,
    comment: column.comment,
    identity: column.identity,
    generated: column.generated,
    collation: column.collation,
  };
}

/** A stored version in the diff's terms; a referenced dataset given by id is named by schema.table. */
export function tableVersionOf(
  version: SchemaVersion,
  datasets: ReadonlyMap<string, RdbmsDataset>,
): TableVersion {
  return {
    table_kind: version.table_kind ?? 'table',
    table_comment: version.table_comment,
    view_definition: version.view_definition,
    columns: [...version.columns].sort((a, b) => a.position - b.position).map(versionColumn),
    primary_key: version.primary_key,
    unique_constraints: version.unique_constraints,
    foreign_keys: version.foreign_keys.map((fk) => {
      const target = fk.referenced.dataset_id === null ? undefined : datasets.get(fk.referenced.dataset_id);
      return {
        name: fk.name,
        columns: fk.columns,
        referenced: {
          schema: target?.schema_name ?? fk.referenced.schema ?? '',
          table: target?.table_name ?? fk.referenced.table ?? '',
          columns: fk.referenced.columns,
        },
        on_update: fk.on_update,
        on_delete: fk.on_delete,
      };
    }),
    indexes: version.indexes,
    check_constraints: version.check_constraints,
  };
}

/**
 * Every active rdbms dataset of the system with its current version. `onPage` is told how many
 * datasets have been read after each page (for the progress bar).
 */
export async function readRegistry(
  client: AideClient,
  systemId: string,
  onPage: (read: number) => void = () => undefined,
): Promise<RegistryDataset[]> {
  const items: SnapshotDataset[] = [];
  await registryCall('read the registry snapshot of the system', async () => {
    for await (const page of client.systems.snapshot(systemId, { limit: SNAPSHOT_PAGE_SIZE })) {
      items.push(...page.items);
      onPage(items.length);
    }
  });
  const rdbms = items.filter(
    (item): item is SnapshotDataset & { dataset: RdbmsDataset } => item.dataset.kind === 'rdbms',
  );
  const byId = new Map(rdbms.map((item) => [item.dataset.id, item.dataset]));
  return rdbms.map(({ dataset, version }) => ({
    dataset_id: dataset.id,
    object_name: dataset.object_name,
    schema: dataset.schema_name,
    table: dataset.table_name,
    version_num: version?.version_num ?? null,
    version: version === null ? null : tableVersionOf(version, byId),
  }));
}
