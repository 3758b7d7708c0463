// The registry's side of a system, read in bulk: the system snapshot route, cursor-paged (1,000
// datasets a page, the next one requested while this one is converted), turned into the versions the
// diff compares. Never one request per dataset.
import type { DatasetKind, SchemaVersion, SystemSnapshotPage, TypeInstanceTree } from '@aide/schemas';
import { structureFingerprint, typeSpecOfTree } from '@aide/schemas/fingerprint';
import { AideApiError, type AideClient } from '@aide/sdk';
import type { InspectedTable, TypeNode } from '../model.js';
import { registryCall } from './client.js';
import {
  datasetKey,
  refOfTable,
  versionOfTable,
  type DatasetRef,
  type RegistryDataset,
  type TableVersion,
  type VersionColumn,
} from './model.js';

/** Datasets per snapshot page: the route's maximum, so 10,000 tables are 10 requests. */
export const SNAPSHOT_PAGE_SIZE = 1000;

/** A stored type tree as the crawler's type node: code, declared scalar params, children by slot. */
export function typeNodeOf(tree: TypeInstanceTree): TypeNode {
  // Its params are the scalar ones only: a TypeNode's.
  return typeSpecOfTree(tree) as TypeNode;
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
 * One stored version in the diff's terms, as a crawl reads it from a snapshot page (its foreign keys'
 * targets named by their stored schema and table). For comparing the crawler's classification of two
 * stored versions with the registry's diff route.
 */
export function registryVersionOf(version: SchemaVersion): TableVersion {
  const converted = tableVersionOf(version, new Shared());
  converted.foreign_keys = version.foreign_keys.map((fk) => foreignKeyOf(fk, new Map()));
  return converted;
}

/**
 * A registry dataset as the crawl matches it (DatasetRef): rdbms by schema and table; another kind by
 * object_name (the registry keeps no schema or table for it: '' and the object_name stand in).
 */
function refOfDataset(
  kind: DatasetKind,
  object_name: string,
  schema: string | null,
  table: string | null,
): DatasetRef {
  if (kind === 'rdbms') return { object_name, schema: schema ?? '', table: table ?? '' };
  return { kind, object_name, schema: '', table: object_name };
}

/**
 * Turns snapshot items into the diff's terms, sharing repeated values; foreign keys are named at the
 * end (`finish`), since a target given by id may come later, from the names of every rdbms dataset.
 */
class Converter {
  readonly registered: RegistryDataset[] = [];
  private readonly keys: { version: TableVersion; stored: StoredForeignKey[] }[] = [];
  private readonly shared = new Shared();

  constructor(readonly names = new Map<string, { schema: string; table: string }>()) {}

  add(item: SystemSnapshotPage['items'][number]): void {
    const { dataset, version } = item;
    const rdbms = dataset.kind === 'rdbms' ? dataset : null;
    if (rdbms !== null) this.names.set(rdbms.id, { schema: rdbms.schema_name, table: rdbms.table_name });
    const converted = version === null ? null : tableVersionOf(version, this.shared);
    if (converted && version && version.foreign_keys.length > 0) {
      this.keys.push({ version: converted, stored: version.foreign_keys });
    }
    this.registered.push({
      ...refOfDataset(
        dataset.kind,
        dataset.object_name,
        rdbms?.schema_name ?? null,
        rdbms?.table_name ?? null,
      ),
      dataset_id: dataset.id,
      version_num: version?.version_num ?? null,
      version: converted,
    });
  }

  finish(): RegistryDataset[] {
    for (const { version, stored } of this.keys) {
      version.foreign_keys = stored.map((fk) => foreignKeyOf(fk, this.names));
    }
    return this.registered;
  }
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
  const converter = new Converter();
  await registryCall('read the registry snapshot of the system', async () => {
    for await (const page of client.systems.snapshot(systemId, { limit: pageSize }, { signal })) {
      for (const item of page.items) converter.add(item);
    }
  });
  return converter.finish();
}

/** Datasets per fingerprint page: the route's maximum, so 10,000 tables are one request. */
export const FINGERPRINT_PAGE_SIZE = 10_000;

/** A dataset of the system as the fingerprint listing gives it (ADR 0032). */
export interface RegistryHead extends DatasetRef {
  dataset_id: string;
  version_num: number | null;
  /** The current version's structural fingerprint; null when the registry has none (read it in full). */
  fingerprint: string | null;
}

/**
 * A registry older than ADR 0032 has no fingerprint route: it answers the generic `NOT_FOUND` of an
 * unknown route (a missing system is `SYSTEM_NOT_FOUND`).
 */
function isMissingRoute(error: unknown): boolean {
  return error instanceof AideApiError && error.status === 404 && error.errorCode === 'NOT_FOUND';
}

/**
 * Every active rdbms dataset of the system with its current version's number and fingerprint; null
 * when the registry predates fingerprints (the crawl then reads every version in full).
 */
export async function readFingerprints(
  client: AideClient,
  systemId: string,
  signal?: AbortSignal,
  pageSize = FINGERPRINT_PAGE_SIZE,
): Promise<RegistryHead[] | null> {
  const heads: RegistryHead[] = [];
  const listed = await registryCall('read the registry fingerprints of the system', async () => {
    try {
      await listFingerprints();
      return true;
    } catch (error) {
      if (heads.length === 0 && isMissingRoute(error)) return false;
      throw error;
    }
  });
  return listed ? heads : null;

  async function listFingerprints() {
    for await (const page of client.systems.fingerprints(systemId, { limit: pageSize }, { signal })) {
      for (const item of page.items) {
        heads.push({
          ...refOfDataset(item.kind, item.object_name, item.schema_name, item.table_name),
          dataset_id: item.dataset_id,
          version_num: item.version_num,
          fingerprint: item.fingerprint,
        });
      }
    }
  }
}

/** The registry side as first read: every version in full, or the fingerprint listing (ADR 0032). */
export type RegistryRead = { full: RegistryDataset[] } | { heads: RegistryHead[] };

/**
 * The fingerprint listing, unless `full` asks for every version in full or the registry predates
 * fingerprints (then every version is read in full, as `--full-registry-read` does).
 */
export async function readRegistrySide(
  client: AideClient,
  systemId: string,
  full: boolean,
  signal?: AbortSignal,
): Promise<RegistryRead> {
  if (!full) {
    const heads = await readFingerprints(client, systemId, signal);
    if (heads !== null) return { heads };
  }
  return { full: await readRegistry(client, systemId, signal) };
}

const tableKey = (schema: string, table: string) => JSON.stringify([schema, table]);

/** A listed dataset whose version is not read in full (none, unchanged, or not needed). */
function withoutVersion(head: RegistryHead): RegistryDataset {
  const { kind, dataset_id, object_name, schema, table, version_num } = head;
  return {
    ...(kind === undefined ? {} : { kind }),
    dataset_id,
    object_name,
    schema,
    table,
    version_num,
    version: null,
  };
}

/**
 * The fingerprint of an inspected table as the registry computes it of a stored version: a foreign
 * key's target is the registered dataset of that name when there is one (the registry stores it by
 * id then), else its `schema.table`.
 */
export function inspectedFingerprint(
  table: InspectedTable,
  idOf: (schema: string, table: string) => string | undefined,
): string {
  const version = versionOfTable(table);
  return structureFingerprint({
    ...version,
    foreign_keys: version.foreign_keys.map((fk) => ({
      ...fk,
      referenced: { ...fk.referenced, dataset_id: idOf(fk.referenced.schema, fk.referenced.table) ?? null },
    })),
  });
}

/** What `readChanged` found: the registry side for the diff, and how many versions it read in full. */
export interface ChangedRead {
  registered: RegistryDataset[];
  fetched: number;
}

/**
 * The registry side of a crawl from the fingerprint listing: a dataset whose fingerprint equals the
 * inspected table's is `unchanged` without being read; the others with a version (changed, unknown
 * fingerprint, or removed from the database within the crawl's scope) are read in full, 1,000 a
 * request, and compared as before. Datasets outside the scope that the database does not have are
 * left out (the diff ignores them).
 */
export async function readChanged(
  client: AideClient,
  systemId: string,
  heads: readonly RegistryHead[],
  tables: readonly InspectedTable[],
  inScope: (dataset: DatasetRef) => boolean,
  signal?: AbortSignal,
  batchSize = SNAPSHOT_PAGE_SIZE,
): Promise<ChangedRead> {
  const idByName = new Map(
    heads.filter((h) => h.kind === undefined).map((h) => [tableKey(h.schema, h.table), h.dataset_id]),
  );
  const idOf = (schema: string, table: string) => idByName.get(tableKey(schema, table));
  const inspected = new Map(tables.map((t) => [datasetKey(refOfTable(t)), t]));
  // In the listing's order (dataset id), as a full read lists them.
  const slots: (RegistryDataset | string)[] = [];
  const toRead: string[] = [];
  for (const head of heads) {
    const table = inspected.get(datasetKey(head));
    if (table === undefined && !inScope(head)) continue;
    const dataset = withoutVersion(head);
    if (head.version_num === null) {
      slots.push(dataset);
    } else if (
      table !== undefined &&
      head.fingerprint !== null &&
      head.fingerprint === inspectedFingerprint(table, idOf)
    ) {
      slots.push({ ...dataset, unchanged: true });
    } else {
      slots.push(head.dataset_id);
      toRead.push(head.dataset_id);
    }
  }
  const read = await readVersions(client, systemId, heads, toRead, 'the changed versions', signal, batchSize);
  // A dataset deleted since the listing is not in the read: left out, as a later snapshot would.
  const registered = slots.flatMap((slot) =>
    typeof slot !== 'string' ? [slot] : read.has(slot) ? [read.get(slot) as RegistryDataset] : [],
  );
  return { registered, fetched: toRead.length };
}

/**
 * The current versions of the datasets `ids` in full (the versions route, `batchSize` a request), by
 * dataset id; a foreign key's target given by id is named from the listing `heads`. A dataset deleted
 * since the listing is missing from the map.
 */
async function readVersions(
  client: AideClient,
  systemId: string,
  heads: readonly RegistryHead[],
  ids: readonly string[],
  what: string,
  signal: AbortSignal | undefined,
  batchSize: number,
): Promise<Map<string, RegistryDataset>> {
  const converter = new Converter(
    new Map(heads.map((h) => [h.dataset_id, { schema: h.schema, table: h.table }])),
  );
  await registryCall(`read ${what} of the system`, async () => {
    for (let from = 0; from < ids.length; from += batchSize) {
      const page = await client.systems.snapshotVersions(systemId, ids.slice(from, from + batchSize), {
        signal,
      });
      for (const item of page.items) converter.add(item);
    }
  });
  return new Map(converter.finish().map((d) => [d.dataset_id, d]));
}

/** A dataset of a report as `apply` sees it: which one, and whether it has a version to publish. */
export interface ReportedTable extends DatasetRef {
  /** The report's version to publish; null for a table removed from the database. */
  target: unknown;
}

/**
 * The registry's current state of the report's tables, for `apply` (ADR 0013): what `readRegistry`
 * gives for them, read as ADR 0032 reads a re-crawl — the fingerprint listing (every dataset's current
 * version number), then in full only the current versions of the tables the report has a version for
 * (`apply` compares them with it), by the versions route. Other datasets are left out: `apply` only
 * looks up the report's. With `full`, or from a registry that predates fingerprints, the whole
 * snapshot is read instead.
 */
export async function readReported(
  client: AideClient,
  systemId: string,
  tables: readonly ReportedTable[],
  full: boolean,
  signal?: AbortSignal,
  batchSize = SNAPSHOT_PAGE_SIZE,
): Promise<RegistryDataset[]> {
  const heads = full ? null : await readFingerprints(client, systemId, signal);
  if (heads === null) return readRegistry(client, systemId, signal, batchSize);
  const reported = new Map(tables.map((t) => [datasetKey(t), t.target !== null]));
  const touched = heads.filter((h) => reported.has(datasetKey(h)));
  const toRead = touched
    .filter((h) => h.version_num !== null && reported.get(datasetKey(h)) === true)
    .map((h) => h.dataset_id);
  const read = await readVersions(
    client,
    systemId,
    heads,
    toRead,
    'the reported versions',
    signal,
    batchSize,
  );
  const wanted = new Set(toRead);
  // A version published since the listing is the one read (the newer number, as a later snapshot
  // would give); a dataset deleted since is left out.
  return touched.flatMap((h): RegistryDataset[] => {
    const dataset = read.get(h.dataset_id);
    if (dataset !== undefined) return [dataset];
    return wanted.has(h.dataset_id) ? [] : [withoutVersion(h)];
  });
}
