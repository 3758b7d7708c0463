// The registry's side of a system, read in bulk: the system snapshot route, cursor-paged (1,000
// datasets a page, the next one requested while this one is converted), turned into the versions the
// diff compares. Never one request per dataset.
import type { SchemaVersion, TypeInstanceTree } from '@aide/schemas';
import type { AideClient } from '@aide/sdk';
import type { TypeNode } from '../model.js';
import { registryCall } from './client.js';
import type { RegistryDataset, TableVersion, VersionColumn } from './model.js';

/** Datasets per snapshot page: the route's maximum, so 10,000 tables are 10 requests. */
export const SNAPSHOT_PAGE_SIZE = 1000;

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

/**
 * What a read keeps once for all the columns that share it: one type node per distinct type (10,000
 * tables of 20 columns have a few dozen, read as 200,000 trees), one copy of each repeated text. The
 * diff and the report never modify these values, so sharing them is safe.
 */
class Shared {
  private readonly types = new Map<string, TypeNode>();
  private readonly texts = new Map<string, string>();

  type(tree: TypeInstanceTree): TypeNode {
    const key =
      tree.children.length === 0 && tree.type_params === null
        ? tree.data_type_code
        : JSON.stringify(typeNodeOf(tree));
    let node = this.types.get(key);
    if (node === undefined) {
      node = typeNodeOf(tree);
      this.types.set(key, node);
    }
    return node;
  }

  text<T extends string | null>(value: T): T {
    if (value === null) return value;
    const known = this.texts.get(value);
    if (known !== undefined) return known as T;
    this.texts.set(value, value);
    return value;
  }
}

function versionColumn(column: SchemaVersion['columns'][number], shared: Shared): VersionColumn {
  return {
    name: shared.text(column.name),
    nullable: column.nullable,
    type: column.type === null ? null : shared.type(column.type),
    native_type: shared.text(column.native_type ?? ''),
    rendered_type: shared.text(column.rendered_type),
    default: shared.text(column.default),
    comment: shared.text(column.comment),
    identity: column.identity,
    generated: column.generated,
    collation: shared.text(column.collation),
  };
}

type StoredForeignKey = SchemaVersion['foreign_keys'][number];

/** A stored foreign key in the diff's terms: a target given by id is named by its `schema.table`. */
function foreignKeyOf(
  fk: StoredForeignKey,
  names: ReadonlyMap<string, { schema: string; table: string }>,
): TableVersion['foreign_keys'][number] {
  const target = fk.referenced.dataset_id === null ? undefined : names.get(fk.referenced.dataset_id);
  return {
    name: fk.name,
    columns: fk.columns,
    referenced: {
      schema: target?.schema ?? fk.referenced.schema ?? '',
      table: target?.table ?? fk.referenced.table ?? '',
      columns: fk.referenced.columns,
    },
    on_update: fk.on_update,
    on_delete: fk.on_delete,
  };
}

/** A stored version in the diff's terms, its foreign keys left for `foreignKeyOf`. */
function tableVersionOf(version: SchemaVersion, shared: Shared): TableVersion {
  return {
    table_kind: version.table_kind ?? 'table',
    table_comment: version.table_comment,
    view_definition: version.view_definition,
    columns: [...version.columns]
      .sort((a, b) => a.position - b.position)
      .map((column) => versionColumn(column, shared)),
    primary_key: version.primary_key,
    unique_constraints: version.unique_constraints,
    foreign_keys: [],
    indexes: version.indexes,
    check_constraints: version.check_constraints,
  };
}

/**
 * Every active rdbms dataset of the system with its current version; `signal` stops the read. Each
 * page is turned into the diff's terms as it arrives and then dropped, so that a 10,000-table system
 * is never held twice. Foreign keys are named last: a target given by id may be on a later page.
 */
export async function readRegistry(
  client: AideClient,
  systemId: string,
  signal?: AbortSignal,
  pageSize = SNAPSHOT_PAGE_SIZE,
): Promise<RegistryDataset[]> {
  const registered: RegistryDataset[] = [];
  const names = new Map<string, { schema: string; table: string }>();
  const keys: { version: TableVersion; stored: StoredForeignKey[] }[] = [];
  const shared = new Shared();
  await registryCall('read the registry snapshot of the system', async () => {
    for await (const page of client.systems.snapshot(systemId, { limit: pageSize }, { signal })) {
      for (const { dataset, version } of page.items) {
        if (dataset.kind !== 'rdbms') continue;
        names.set(dataset.id, { schema: dataset.schema_name, table: dataset.table_name });
        const converted = version === null ? null : tableVersionOf(version, shared);
        if (converted && version && version.foreign_keys.length > 0) {
          keys.push({ version: converted, stored: version.foreign_keys });
        }
        registered.push({
          dataset_id: dataset.id,
          object_name: dataset.object_name,
          schema: dataset.schema_name,
          table: dataset.table_name,
          version_num: version?.version_num ?? null,
          version: converted,
        });
      }
    }
  });
  for (const { version, stored } of keys) version.foreign_keys = stored.map((fk) => foreignKeyOf(fk, names));
  return registered;
}
