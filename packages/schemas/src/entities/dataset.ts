import { z } from 'zod';
import { auditShape, noteShape, rowVersionShape, softDeleteShape } from '../common/audit.js';
import { jsonObject, longText, text } from '../common/text.js';
import { defineResource } from '../resource.js';

export const DATASET_KINDS = ['rdbms', 'kafka', 'storage', 'sftp', 'hive'] as const;
export const DatasetKindSchema = z.enum(DATASET_KINDS);
export type DatasetKind = z.infer<typeof DatasetKindSchema>;

/**
 * The system kinds (`system_kinds.code`) whose systems can hold a dataset of each kind: a Kafka topic
 * lives on a Kafka cluster, not on a PostgreSQL server. A system kind named nowhere here holds no
 * datasets. docs/dataset-kinds.md explains the table; the server answers a misfit with 422
 * DATASET_SYSTEM_KIND_MISMATCH.
 */
export const DATASET_KIND_SYSTEM_KINDS = {
  rdbms: ['rdbms'],
  kafka: ['kafka'],
  storage: ['storage'],
  sftp: ['sftp'],
  hive: ['hive'],
} as const satisfies Record<DatasetKind, readonly string[]>;

/** Whether a system of kind `systemKindCode` can hold a dataset of kind `kind`. */
export function datasetKindFitsSystemKind(kind: DatasetKind, systemKindCode: string): boolean {
  return (DATASET_KIND_SYSTEM_KINDS[kind] as readonly string[]).includes(systemKindCode);
}

export const DATASET_LAYERS = ['source', 'cdc', 'kafka', 'raw', 'core'] as const;
export const DatasetLayerSchema = z.enum(DATASET_LAYERS);
export type DatasetLayer = z.infer<typeof DatasetLayerSchema>;

export const DATASET_PATTERNS = ['scd1', 'scd2', 'snapshot', 'append_only', 'cdc_payload'] as const;
export const DatasetPatternSchema = z.enum(DATASET_PATTERNS);

const names = z.array(text()).max(1000);
const bigInt = z.int().min(-1).max(Number.MAX_SAFE_INTEGER);

/** Kind-specific attributes: required on create unless optional here (AIDE v2 §1.5). */
export const DATASET_KIND_ATTRIBUTES = {
  rdbms: {
    catalog_name: longText(1000).nullable().optional(),
    schema_name: longText(1000).min(1),
    table_name: longText(1000).min(1),
    is_view: z.boolean().optional(),
    distribution: names.nullable().optional(),
    pk_columns: names.nullable().optional(),
    uq_constraints: jsonObject.nullable().optional(),
  },
  kafka: {
    topic: longText(1000).min(1),
    format: text(),
    // Unknown to a schema registry (ADR 0045): null until the user or a broker-aware crawl fills them.
    partitions: z.int().min(1).max(1_000_000).nullable().optional(),
    retention_ms: bigInt.nullable().optional(),
    key_columns: names,
  },
  storage: {
    path: longText(4000).min(1),
    file_format: text(),
    compression: text().nullable().optional(),
    partition_by: names.nullable().optional(),
  },
  sftp: {
    path: longText(4000).min(1),
    file_format: text(),
    compression: text().nullable().optional(),
    archive: longText(4000).nullable().optional(),
  },
  hive: {
    catalog_uri: longText(4000).min(1),
    db_name: longText(1000).min(1),
    table_name: longText(1000).min(1),
    is_external: z.boolean().optional(),
    file_format: text(),
    location: longText(4000).nullable().optional(),
    partition_cols: names.nullable().optional(),
    serde: longText(4000).nullable().optional(),
    tblproperties: jsonObject.nullable().optional(),
    bkey_columns: names.nullable().optional(),
  },
} as const;

/**
 * The dataset's own flavor (ADR 0045): a flavor of its system's kind, whose data types its columns are
 * typed in; null or left out = the system's flavor. A Kafka cluster or Schema Registry holds Avro,
 * Protobuf and JSON Schema subjects side by side.
 */
const flavorId = z
  .uuid()
  .nullable()
  .describe("A flavor of the system's kind to type the columns in; null: the system's flavor");

const commonCreate = {
  system_id: z.uuid(),
  flavor_id: flavorId.optional(),
  object_name: longText(1000).min(1),
  layer: DatasetLayerSchema.nullable().optional(),
  pattern_code: DatasetPatternSchema.nullable().optional(),
  is_active: z.boolean().optional(),
  extra: jsonObject.nullable().optional(),
  ...noteShape,
};

const commonUpdate = {
  object_name: longText(1000).min(1).optional(),
  flavor_id: flavorId
    .optional()
    .describe("Changes only while no schema version is published (they are typed in the dataset's flavor)"),
  layer: DatasetLayerSchema.nullable().optional(),
  pattern_code: DatasetPatternSchema.nullable().optional(),
  is_active: z.boolean().optional(),
  extra: jsonObject.nullable().optional(),
  ...noteShape,
  ...rowVersionShape,
};

/** Every key of a shape made optional (update bodies). */
export function partial<T extends Record<string, z.ZodType>>(shape: T) {
  return Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, v.optional()])) as {
    [K in keyof T]: z.ZodOptional<T[K]>;
  };
}

export const CreateDatasetSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('rdbms'), ...commonCreate, ...DATASET_KIND_ATTRIBUTES.rdbms }),
    z.strictObject({ kind: z.literal('kafka'), ...commonCreate, ...DATASET_KIND_ATTRIBUTES.kafka }),
    z.strictObject({ kind: z.literal('storage'), ...commonCreate, ...DATASET_KIND_ATTRIBUTES.storage }),
    z.strictObject({ kind: z.literal('sftp'), ...commonCreate, ...DATASET_KIND_ATTRIBUTES.sftp }),
    z.strictObject({ kind: z.literal('hive'), ...commonCreate, ...DATASET_KIND_ATTRIBUTES.hive }),
  ])
  .meta({ id: 'CreateDataset' });
export type CreateDataset = z.input<typeof CreateDatasetSchema>;

/** `kind` is required and must equal the stored kind; `system_id` cannot change. */
export const UpdateDatasetSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('rdbms'), ...commonUpdate, ...partial(DATASET_KIND_ATTRIBUTES.rdbms) }),
    z.strictObject({ kind: z.literal('kafka'), ...commonUpdate, ...partial(DATASET_KIND_ATTRIBUTES.kafka) }),
    z.strictObject({
      kind: z.literal('storage'),
      ...commonUpdate,
      ...partial(DATASET_KIND_ATTRIBUTES.storage),
    }),
    z.strictObject({ kind: z.literal('sftp'), ...commonUpdate, ...partial(DATASET_KIND_ATTRIBUTES.sftp) }),
    z.strictObject({ kind: z.literal('hive'), ...commonUpdate, ...partial(DATASET_KIND_ATTRIBUTES.hive) }),
  ])
  .meta({ id: 'UpdateDataset' });
export type UpdateDataset = z.input<typeof UpdateDatasetSchema>;

const commonRead = {
  ...auditShape,
  ...softDeleteShape,
  system_id: z.uuid(),
  flavor_id: z.uuid().nullable().describe("The dataset's own flavor; null: its system's"),
  object_name: z.string(),
  layer: z.string().nullable(),
  pattern_code: z.string().nullable(),
  is_active: z.boolean(),
  extra: z.record(z.string(), z.unknown()).nullable(),
};
const strs = z.array(z.string()).nullable();
const obj = z.record(z.string(), z.unknown()).nullable();

export const DatasetSchema = z
  .discriminatedUnion('kind', [
    z.object({
      kind: z.literal('rdbms'),
      ...commonRead,
      catalog_name: z.string().nullable(),
      schema_name: z.string(),
      table_name: z.string(),
      is_view: z.boolean(),
      distribution: strs,
      pk_columns: strs,
      uq_constraints: obj,
    }),
    z.object({
      kind: z.literal('kafka'),
      ...commonRead,
      topic: z.string(),
      format: z.string(),
      partitions: z.int().nullable(),
      retention_ms: z.number().nullable(),
      key_columns: z.array(z.string()),
    }),
    z.object({
      kind: z.literal('storage'),
      ...commonRead,
      path: z.string(),
      file_format: z.string(),
      compression: z.string().nullable(),
      partition_by: strs,
    }),
    z.object({
      kind: z.literal('sftp'),
      ...commonRead,
      path: z.string(),
      file_format: z.string(),
      compression: z.string().nullable(),
      archive: z.string().nullable(),
    }),
    z.object({
      kind: z.literal('hive'),
      ...commonRead,
      catalog_uri: z.string(),
      db_name: z.string(),
      table_name: z.string(),
      is_external: z.boolean(),
      file_format: z.string(),
      location: z.string().nullable(),
      partition_cols: strs,
      serde: z.string().nullable(),
      tblproperties: obj,
      bkey_columns: strs,
    }),
  ])
  .meta({ id: 'Dataset' });
export type Dataset = z.infer<typeof DatasetSchema>;

export const datasetResource = defineResource({
  path: 'datasets',
  tag: 'Datasets',
  name: 'Dataset',
  read: DatasetSchema,
  create: CreateDatasetSchema,
  update: UpdateDatasetSchema,
  list: {
    filters: {
      system_id: { type: 'uuid', ops: ['eq', 'in'] },
      flavor_id: { type: 'uuid', ops: ['eq', 'in'] },
      object_name: { type: 'string', ops: ['eq', 'like'] },
      layer: { type: 'string', ops: ['eq', 'in'], values: DATASET_LAYERS },
      kind: { type: 'string', ops: ['eq', 'in'], values: DATASET_KINDS },
      is_active: { type: 'boolean', ops: ['eq'] },
      created_at: { type: 'datetime', ops: ['gte', 'lte'] },
    },
    sortable: ['object_name', 'layer', 'kind', 'is_active', 'created_at', 'updated_at'],
    defaultSort: 'object_name',
    softDelete: true,
  },
  notFound: 'DATASET_NOT_FOUND',
  writeRole: 'user',
  keys: 'catalogue',
  softDelete: true,
  batch: false,
  errors: [
    'DATASET_ALREADY_EXISTS',
    'SYSTEM_NOT_FOUND',
    'INVALID_DATASET_KIND',
    'DATASET_KIND_MISMATCH',
    'DATASET_SYSTEM_KIND_MISMATCH',
    'DATASET_FLAVOR_KIND_MISMATCH',
    'SYSTEM_FLAVOR_NOT_FOUND',
    'TYPE_INSTANCE_FLAVOR_MISMATCH',
  ],
});
