import {
  contract,
  type BulkCreateDatasetsResult,
  type BulkPublishItem,
  type BulkPublishResult,
  type CreateDataset,
  type Dataset,
  type DatasetKind,
  type LakeSyncRequest,
  type LakeSyncResult,
  type PublishResult,
  type PublishSchemaVersion,
  type SchemaVersion,
  type SchemaVersionDiff,
  type SchemaVersionImpact,
  type SchemaVersionSummary,
  type TranslationFormat,
  type Translation,
  type UpdateDataset,
} from '@aide/schemas';
import type { RequestOptions } from '../core/request-options.js';
import { type BulkOptions, sendInChunks } from '../internal/bulk.js';
import { CrudResource, type UpdateOptions, type WithRowVersion } from './crud.js';

const versions = contract.schemaVersions;

/** What `translateSchemaVersion` renders: the target flavor, its output format, and strict mode. */
export interface TranslateOptions {
  /** The target flavor code: `postgres14`, `mysql8`, `sqlite3`, `hive3`, `spark_sql`, `iceberg_v2`, `avro`… */
  flavor: string;
  /** The output; left out, the flavor's own (DDL for SQL flavors, `parquet` for file flavors). */
  format?: TranslationFormat;
  /** true: a lossy translation fails with `TRANSLATION_LOSSY` (details list what it would lose). */
  strict?: boolean;
}

/** A dataset of one kind: `DatasetOf<'kafka'>` has `topic`, `partitions`, `key_columns`, ... */
export type DatasetOf<K extends DatasetKind> = Extract<Dataset, { kind: K }>;
/** The create body of a dataset of one kind: the common keys plus that kind's attributes. */
export type CreateDatasetOf<K extends DatasetKind> = Extract<CreateDataset, { kind: K }>;
/** The update body of a dataset of one kind: `kind` (the stored one), `row_version`, any other keys. */
export type UpdateDatasetOf<K extends DatasetKind> = Extract<UpdateDataset, { kind: K }>;

function versionPath(num: number): string {
  if (!Number.isInteger(num) || num < 1 || num > 2_147_483_647) {
    throw new TypeError(`A schema version number must be a positive integer, got ${String(num)}`);
  }
  return String(num);
}

/**
 * `/api/v1/datasets`: tables, topics, files and Hive tables of a system, polymorphic on `kind`
 * (`rdbms`, `kafka`, `storage`, `sftp`, `hive`), each kind with its own attributes; and their schema
 * versions. Soft delete: `restore` is added by the client.
 *
 * `create` and `update` are typed by the `kind` of the body, and so is what they return. A dataset's
 * kind must fit its system's kind (`DATASET_KIND_SYSTEM_KINDS`: a topic on a `kafka` system):
 *
 * ```ts
 * const topic = await client.datasets.create({ kind: 'kafka', system_id: kafkaSystemId, object_name: 'orders',
 *   topic: 'orders.v1', format: 'avro', partitions: 12, retention_ms: 604_800_000, key_columns: ['id'] });
 * topic.partitions; // number | null: topic is a DatasetOf<'kafka'>
 * ```
 *
 * `flavor_id` gives a dataset a flavor of its own, of its system's kind (a Protobuf topic on a cluster
 * whose flavor is Avro); its columns are typed in it. Null or left out: the system's flavor.
 *
 * `get` and `list` return the union `Dataset`: narrow it with `if (dataset.kind === 'rdbms')`.
 */
export class DatasetsResource extends CrudResource<Dataset, CreateDataset, UpdateDataset> {
  /**
   * `POST /datasets/{id}/lake-sync` — mirrors the dataset's current version into a new Iceberg table of
   * `target_system_id` (flavor `iceberg_v2`), all or nothing: the hive dataset, its version 1 (types
   * through the cast rules, or `overrides`; a template's technical columns after them), the link and a
   * field link per column. `warnings` name overrides, fallbacks to `string` and unsafe casts.
   */
  lakeSync(datasetId: string, body: LakeSyncRequest, options?: RequestOptions): Promise<LakeSyncResult> {
    return this.api.invoke(contract.datasetLinks.lakeSync, { params: { id: datasetId }, body, options });
  }

  /**
   * `POST /datasets` — 201 with the created dataset, of the body's kind. `ConflictError`
   * (`DATASET_ALREADY_EXISTS`) when the system already has a dataset of that name; `ValidationError`
   * (422 `DATASET_SYSTEM_KIND_MISMATCH`) when the system's kind cannot hold datasets of this kind.
   */
  override create<K extends DatasetKind>(
    body: CreateDatasetOf<K> & { kind: K },
    options?: RequestOptions,
  ): Promise<DatasetOf<K>> {
    return super.create(body, options) as Promise<DatasetOf<K>>;
  }

  /**
   * `PATCH /datasets/{id}` — partial update. The body names the dataset's `kind` (changing it is
   * refused: `DATASET_KIND_MISMATCH`) and the `row_version` read; `system_id` cannot change.
   */
  override update<K extends DatasetKind>(
    id: string,
    body: WithRowVersion<UpdateDatasetOf<K>> & { kind: K },
    options?: UpdateOptions,
  ): Promise<DatasetOf<K>>;
  override update<K extends DatasetKind>(
    id: string,
    body: UpdateDatasetOf<K> & { kind: K },
    options: UpdateOptions & { ifMatch: number },
  ): Promise<DatasetOf<K>>;
  override update(id: string, body: UpdateDataset, options?: UpdateOptions): Promise<Dataset> {
    return super.update(id, body as WithRowVersion<UpdateDataset>, options);
  }

  /**
   * `POST /datasets/{id}/schema-versions` — publishes a whole schema version in one transaction: the
   * ordered columns with their nullability and type trees (data type codes of the system's flavor).
   * Fields are found or created by name, unchanged type trees are reused, and the server numbers the
   * version unless `version_num` is given.
   *
   * Both outcomes are a success: `created: true` (201) with the new version, or `created: false` (200)
   * when the columns equal the current version's — nothing was written and `version` is the current one.
   *
   * ```ts
   * const { created, version } = await client.datasets.publishSchemaVersion(id, {
   *   columns: [
   *     { name: 'id', nullable: false, type: { data_type: 'bigint' } },
   *     { name: 'amount', type: { data_type: 'numeric', params: { precision: 12, scale: 2 } } },
   *     { name: 'tags', type: { data_type: 'array', children: [{ slot: 'item', type: { data_type: 'text' } }] } },
   *   ],
   * }, { idempotencyKey: randomUUID() });
   * ```
   *
   * With an `idempotencyKey` the call is retried safely, and a repeat of the key replays the first
   * answer (`created: true` again, the same version). Errors: `NotFoundError` (`DATASET_NOT_FOUND`,
   * `DATA_TYPE_NOT_FOUND` for a code the flavor lacks), `ValidationError`
   * (`TYPE_INSTANCE_PARAMS_INVALID`), `ConflictError` (`DATASET_SCHEMA_ALREADY_EXISTS` for a taken
   * `version_num`).
   */
  publishSchemaVersion(
    datasetId: string,
    body: PublishSchemaVersion,
    options?: RequestOptions,
  ): Promise<PublishResult> {
    return this.api.invoke(versions.publish, { params: { id: datasetId }, body, options });
  }

  /**
   * `POST /datasets/{id}/schema-versions/impact` — a dry run of `publishSchemaVersion` with the same
   * body: every active link with the dataset on either side, its pre-flight now and re-pinned to the
   * would-be version, and which field links would break (`error` after, not before). Nothing is
   * written; a CI job fails the build on `summary.breaking_links > 0`.
   */
  previewSchemaVersionImpact(
    datasetId: string,
    body: PublishSchemaVersion,
    options?: RequestOptions,
  ): Promise<SchemaVersionImpact> {
    return this.api.invoke(versions.impact, { params: { id: datasetId }, body, options });
  }

  /** `GET /datasets/{id}/schema-versions` — the version history, newest first, with column counts. */
  schemaVersions(datasetId: string, options?: RequestOptions): Promise<SchemaVersionSummary[]> {
    return this.api.invoke(versions.history, { params: { id: datasetId }, options });
  }

  /**
   * `GET /datasets/{id}/schema-versions/{num}` — one version: its columns in order, each with its field,
   * nullability, type tree, rendered type and current PII tags. `NotFoundError`
   * (`DATASET_SCHEMA_NOT_FOUND`) when there is no such version.
   */
  schemaVersion(datasetId: string, versionNum: number, options?: RequestOptions): Promise<SchemaVersion> {
    return this.api.invoke(versions.get, {
      params: { id: datasetId, num: versionPath(versionNum) },
      options,
    });
  }

  /**
   * `GET /datasets/{id}/versions/{num}/translate` — a version rendered into another flavor through the
   * cast rules: `content` (DDL, an Avro schema, a JSON Schema, a Protobuf message or a Parquet schema),
   * each column's source and target type with the cast's fidelity and loss, and the `omissions` (columns
   * without a mapping, defaults, keys, comments the target cannot hold). `lossy` is true when anything
   * is lost; with `strict: true` such a translation is a `ValidationError` (`TRANSLATION_LOSSY`) instead.
   *
   * ```ts
   * const { content, omissions } = await client.datasets.translateSchemaVersion(id, 3, { flavor: 'mysql8' });
   * ```
   */
  translateSchemaVersion(
    datasetId: string,
    versionNum: number,
    translate: TranslateOptions,
    options?: RequestOptions,
  ): Promise<Translation> {
    return this.api.invoke(contract.translations.translate, {
      params: { id: datasetId, num: versionPath(versionNum) },
      query: {
        flavor: translate.flavor,
        ...(translate.format === undefined ? {} : { format: translate.format }),
        ...(translate.strict === undefined ? {} : { strict: translate.strict ? 'true' : 'false' }),
      },
      options,
    });
  }

  /**
   * `GET /datasets/{id}/schema-versions/diff?from=&to=` — what changed from one version to another:
   * columns added, removed, with another type, nullability or position (matched by name).
   */
  diffSchemaVersions(
    datasetId: string,
    from: number,
    to: number,
    options?: RequestOptions,
  ): Promise<SchemaVersionDiff> {
    return this.api.invoke(versions.diff, {
      params: { id: datasetId },
      query: { from: versionPath(from), to: versionPath(to) },
      options,
    });
  }

  /**
   * `POST /datasets/bulk` — creates many datasets, each on its own: one that fails does not stop the
   * others. Sent in chunks of at most 500 items (and the server's body limit), the results merged in
   * input order: `status` `created` with the `dataset`, or `failed` with the `error` a single create
   * would have answered (`DATASET_ALREADY_EXISTS` carries the existing one in `details.dataset_id`).
   *
   * ```ts
   * const { items, summary } = await client.datasets.bulkCreate(missing);
   * const ids = items.map((r) => r.dataset?.id ?? (r.error?.details?.dataset_id as string));
   * ```
   */
  bulkCreate(
    items: readonly CreateDataset[],
    options?: BulkOptions<BulkCreateDatasetsResult>,
  ): Promise<BulkCreateDatasetsResult> {
    return sendInChunks(this.api, contract.datasets.bulkCreate, items, { created: 0, failed: 0 }, options);
  }

  /**
   * `POST /schema-versions/bulk` — publishes many datasets' versions, each atomic on its own and
   * checked against the `base_version_num` it was computed from (`null`: the dataset had none). An item
   * names its dataset by `dataset_id`, or carries the `dataset` to create with this version as its
   * first: both are written in one transaction, so a refused version leaves no dataset behind
   * (`DATASET_ALREADY_EXISTS`, with `details.dataset_id`, when the name is taken). Per item: `created`
   * (the new `version_num`, and the `dataset_id` of a created dataset), `unchanged` (equal to the
   * current version, also when the base is stale — so re-sending the same items is harmless), or
   * `failed` with its `error`: `VERSION_CONFLICT` when the dataset moved past its base, or what a
   * single publish would answer. Each result carries the registry's own classification of the change
   * (`compatibility`, `changes`); `refuse_breaking: true` fails an item the registry finds breaking
   * (`DATASET_SCHEMA_BREAKING_CHANGE`) instead of publishing it.
   *
   * ```ts
   * const { items } = await client.datasets.bulkPublish([
   *   { dataset: { kind: 'rdbms', system_id, object_name: 'public.orders', schema_name: 'public',
   *       table_name: 'orders' }, base_version_num: null, columns },
   *   { dataset_id: customersId, base_version_num: 3, refuse_breaking: true, columns: customerColumns },
   * ]);
   * ```
   */
  bulkPublish(
    items: readonly BulkPublishItem[],
    options?: BulkOptions<BulkPublishResult>,
  ): Promise<BulkPublishResult> {
    return sendInChunks(
      this.api,
      versions.bulkPublish,
      items,
      { created: 0, unchanged: 0, failed: 0 },
      options,
    );
  }
}
