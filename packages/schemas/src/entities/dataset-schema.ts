import { z } from 'zod';
import { auditShape, noteShape, rowVersionShape } from '../common/audit.js';
import { jsonObject, positiveInt32 } from '../common/text.js';
import { defineResource } from '../resource.js';

/**
 * A schema version header of a dataset. The free-form payload is `schema` on requests and `schema_` on
 * responses, as in the original API (its DTO field could not be called `schema`).
 */
export const DatasetSchemaSchema = z
  .object({
    ...auditShape,
    dataset_id: z.uuid(),
    version_num: z.int(),
    schema_: z.record(z.string(), z.unknown()).nullable(),
    extra: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: 'DatasetSchema' });
export type DatasetSchemaVersion = z.infer<typeof DatasetSchemaSchema>;

export const CreateDatasetSchemaSchema = z
  .strictObject({
    dataset_id: z.uuid(),
    version_num: positiveInt32
      .optional()
      .describe('Assigned by the server when omitted; when given, it must be the next number (highest + 1)'),
    schema: jsonObject.nullable().optional(),
    extra: jsonObject.nullable().optional(),
    ...noteShape,
  })
  .meta({ id: 'CreateDatasetSchema' });
export type CreateDatasetSchemaVersion = z.input<typeof CreateDatasetSchemaSchema>;

/** Only a version without bindings can change; `dataset_id` and `version_num` are fixed. */
export const UpdateDatasetSchemaSchema = z
  .strictObject({
    schema: jsonObject.nullable().optional(),
    extra: jsonObject.nullable().optional(),
    ...noteShape,
    ...rowVersionShape,
  })
  .meta({ id: 'UpdateDatasetSchema' });
export type UpdateDatasetSchemaVersion = z.input<typeof UpdateDatasetSchemaSchema>;

export const datasetSchemaResource = defineResource({
  path: 'dataset-schemas',
  tag: 'Dataset schemas',
  name: 'DatasetSchema',
  read: DatasetSchemaSchema,
  create: CreateDatasetSchemaSchema,
  update: UpdateDatasetSchemaSchema,
  list: {
    filters: {
      dataset_id: { type: 'uuid', ops: ['eq', 'in'] },
      version_num: { type: 'int', ops: ['eq', 'gte', 'lte'] },
      created_at: { type: 'datetime', ops: ['gte', 'lte'] },
    },
    sortable: ['version_num', 'created_at', 'updated_at'],
    defaultSort: 'version_num',
    softDelete: false,
  },
  notFound: 'DATASET_SCHEMA_NOT_FOUND',
  writeRole: 'user',
  keys: 'catalogue',
  softDelete: false,
  batch: false,
  errors: [
    'DATASET_SCHEMA_ALREADY_EXISTS',
    'DATASET_SCHEMA_VERSION_NOT_NEXT',
    'DATASET_NOT_FOUND',
    'DATASET_SCHEMA_IMMUTABLE',
    'DATASET_SCHEMA_NOT_LATEST',
  ],
});
