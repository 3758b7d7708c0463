import { z } from 'zod';
import { ItemErrorSchema } from '../common/error-response.js';
import { MAX_BATCH_SIZE } from '../common/list-query.js';
import { positiveInt32, wireInt } from '../common/text.js';
import { CreateDatasetSchema, DatasetKindSchema, DatasetSchema } from './dataset.js';
import { checkPublishedVersion, publishVersionShape, SchemaVersionSchema } from './schema-version.js';
import { versionChangeShape } from './version-change.js';

// The bulk paths for machines (a crawler): a system's registry side in a few requests, and many
// datasets created or published in one request, each item on its own.

export const DEFAULT_SNAPSHOT_LIMIT = 500;
export const MAX_SNAPSHOT_LIMIT = 1000;

/** `GET /systems/{id}/snapshot?cursor=&limit=` */
export const SystemSnapshotQuerySchema = z.strictObject({
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,200}$/, { message: 'must be a next_cursor of a previous page' })
    .optional(),
  limit: wireInt(1, MAX_SNAPSHOT_LIMIT)
    .optional()
    .describe(`Datasets per page (default ${DEFAULT_SNAPSHOT_LIMIT}, at most ${MAX_SNAPSHOT_LIMIT})`),
});
export type SystemSnapshotQuery = { cursor?: string | undefined; limit?: number | undefined };

export const SnapshotDatasetSchema = z
  .object({
    dataset: DatasetSchema,
    flavor_id: z
      .uuid()
      .describe(
        "The flavor the dataset's columns are typed in: its own flavor_id, else its system's (ADR 0045)",
      ),
    flavor_code: z.string().describe('The code of that flavor'),
    version: SchemaVersionSchema.nullable().describe('The current version; null when none is published'),
  })
  .meta({ id: 'SnapshotDataset' });
export type SnapshotDataset = z.infer<typeof SnapshotDatasetSchema>;

export const SystemSnapshotPageSchema = z
  .object({
    system_id: z.uuid(),
    items: z.array(SnapshotDatasetSchema),
    next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page'),
  })
  .meta({ id: 'SystemSnapshotPage' });
export type SystemSnapshotPage = z.infer<typeof SystemSnapshotPageSchema>;

export const DEFAULT_FINGERPRINT_LIMIT = 5000;
export const MAX_FINGERPRINT_LIMIT = 10_000;

/** `GET /systems/{id}/snapshot/fingerprints?cursor=&limit=` */
export const SystemFingerprintsQuerySchema = z.strictObject({
  cursor: SystemSnapshotQuerySchema.shape.cursor,
  limit: wireInt(1, MAX_FINGERPRINT_LIMIT)
    .optional()
    .describe(`Datasets per page (default ${DEFAULT_FINGERPRINT_LIMIT}, at most ${MAX_FINGERPRINT_LIMIT})`),
});
export type SystemFingerprintsQuery = { cursor?: string | undefined; limit?: number | undefined };

export const DatasetFingerprintSchema = z
  .object({
    dataset_id: z.uuid(),
    kind: DatasetKindSchema,
    object_name: z.string(),
    schema_name: z.string().nullable().describe('rdbms datasets: the schema; null for other kinds'),
    table_name: z.string().nullable().describe('rdbms datasets: the table; null for other kinds'),
    version_num: z.int().nullable().describe('The current version; null when none is published'),
    fingerprint: z
      .string()
      .nullable()
      .describe(
        "SHA-256 (hex) of the current version's structure as a crawler compares it (ADR 0032); null " +
          'when none is known yet (read the version in full: that stores it)',
      ),
  })
  .meta({ id: 'DatasetFingerprint' });
export type DatasetFingerprint = z.infer<typeof DatasetFingerprintSchema>;

export const SystemFingerprintsPageSchema = z
  .object({
    system_id: z.uuid(),
    items: z.array(DatasetFingerprintSchema),
    next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page'),
  })
  .meta({ id: 'SystemFingerprintsPage' });
export type SystemFingerprintsPage = z.infer<typeof SystemFingerprintsPageSchema>;

/** `POST /systems/{id}/snapshot/versions`: the snapshot items of the given datasets. */
export const SnapshotVersionsRequestSchema = z
  .strictObject({
    dataset_ids: z
      .array(z.uuid())
      .min(1)
      .max(MAX_SNAPSHOT_LIMIT)
      .describe("Datasets of the system; unknown, deleted and other systems' ones are left out"),
  })
  .meta({ id: 'SnapshotVersionsRequest' });
export type SnapshotVersionsRequest = z.input<typeof SnapshotVersionsRequestSchema>;

/**
 * One dataset's version in `POST /schema-versions/bulk`, with the version it was computed from: of a
 * registered dataset (`dataset_id`), or of a dataset created with it (`dataset`).
 */
export const BulkPublishItemSchema = z
  .strictObject({
    dataset_id: z.uuid().optional().describe('The registered dataset to publish to (or give `dataset`)'),
    dataset: CreateDatasetSchema.optional().describe(
      'A dataset to create with this version as its first, in one transaction: a version that is ' +
        'refused leaves no dataset behind. A name already taken answers DATASET_ALREADY_EXISTS with ' +
        'the dataset in details.dataset_id. Needs base_version_num null',
    ),
    base_version_num: positiveInt32
      .nullable()
      .describe(
        'The current version number the item was computed from (null: the dataset had none). A dataset ' +
          'whose current version differs answers VERSION_CONFLICT, unless the item equals it',
      ),
    refuse_breaking: z
      .boolean()
      .optional()
      .describe(
        "true: refuse the item (DATASET_SCHEMA_BREAKING_CHANGE) when the registry's own classification " +
          'of the change from the current version is breaking. Only ever stricter: the registry never ' +
          "takes a client's word for a change's class",
      ),
    ...publishVersionShape,
  })
  .superRefine((item, ctx) => {
    checkPublishedVersion(item, ctx);
    if ((item.dataset_id === undefined) === (item.dataset === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'give either dataset_id or dataset', path: ['dataset_id'] });
    }
    if (item.dataset !== undefined && item.base_version_num !== null) {
      ctx.addIssue({
        code: 'custom',
        message: 'a dataset created with its version has no base version: null',
        path: ['base_version_num'],
      });
    }
    if (item.dataset !== undefined && item.version_num !== undefined && item.version_num !== 1) {
      ctx.addIssue({
        code: 'custom',
        message: "a new dataset's first version is 1",
        path: ['version_num'],
      });
    }
  })
  .meta({ id: 'BulkPublishItem' });
export type BulkPublishItem = z.input<typeof BulkPublishItemSchema>;

export const BulkPublishSchema = z
  .strictObject({ items: z.array(BulkPublishItemSchema).min(1).max(MAX_BATCH_SIZE) })
  .superRefine((body, ctx) => {
    const seen = new Map<string, number>();
    body.items.forEach((item, i) => {
      // A dataset named twice, by id or as the same new name in a system.
      const key =
        item.dataset_id ?? JSON.stringify([item.dataset?.system_id.toLowerCase(), item.dataset?.object_name]);
      const first = seen.get(key);
      if (first !== undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `the same dataset as item ${first}`,
          path: ['items', i, item.dataset_id !== undefined ? 'dataset_id' : 'dataset'],
        });
      }
      seen.set(key, i);
    });
  })
  .meta({ id: 'BulkPublish' });
export type BulkPublish = z.input<typeof BulkPublishSchema>;

export const BULK_PUBLISH_STATUSES = ['created', 'unchanged', 'failed'] as const;

export const BulkPublishItemResultSchema = z
  .object({
    index: z.int(),
    dataset_id: z
      .uuid()
      .nullable()
      .describe('The dataset (the one created for an item with `dataset`); null when that failed'),
    status: z.enum(BULK_PUBLISH_STATUSES),
    version_num: z.int().nullable().describe('The new version, or the current one when unchanged'),
    dataset_schema_id: z.uuid().nullable(),
    base_version_num: z
      .int()
      .nullable()
      .describe('The version the change was classified against: the current one at publish (null: none)'),
    ...versionChangeShape,
    error: ItemErrorSchema.nullable(),
  })
  .meta({ id: 'BulkPublishItemResult' });
export type BulkPublishItemResult = z.infer<typeof BulkPublishItemResultSchema>;

export const BulkPublishResultSchema = z
  .object({
    items: z.array(BulkPublishItemResultSchema),
    summary: z.object({ created: z.int(), unchanged: z.int(), failed: z.int() }),
  })
  .meta({ id: 'BulkPublishResult' });
export type BulkPublishResult = z.infer<typeof BulkPublishResultSchema>;

/** `POST /datasets/bulk`: datasets created each on its own (a failing one does not stop the others). */
export const BulkCreateDatasetsSchema = z
  .strictObject({ items: z.array(CreateDatasetSchema).min(1).max(MAX_BATCH_SIZE) })
  .meta({ id: 'BulkCreateDatasets' });
export type BulkCreateDatasets = z.input<typeof BulkCreateDatasetsSchema>;

export const BulkCreateItemResultSchema = z
  .object({
    index: z.int(),
    status: z.enum(['created', 'failed']),
    dataset: DatasetSchema.nullable(),
    error: ItemErrorSchema.nullable().describe(
      'DATASET_ALREADY_EXISTS carries the existing dataset in details.dataset_id',
    ),
  })
  .meta({ id: 'BulkCreateItemResult' });
export type BulkCreateItemResult = z.infer<typeof BulkCreateItemResultSchema>;

export const BulkCreateDatasetsResultSchema = z
  .object({
    items: z.array(BulkCreateItemResultSchema),
    summary: z.object({ created: z.int(), failed: z.int() }),
  })
  .meta({ id: 'BulkCreateDatasetsResult' });
export type BulkCreateDatasetsResult = z.infer<typeof BulkCreateDatasetsResultSchema>;
