import { z } from 'zod';
import { auditShape, noteShape, rowVersionShape, softDeleteShape } from '../common/audit.js';
import { int32, jsonObject, longText, text } from '../common/text.js';
import { LOAD_TYPES, PROCESSING_MODES } from '../datacoolie/constants.js';
import { defineResource } from '../resource.js';

export const DATAFLOW_SOURCE_KINDS = ['dataset', 'query', 'function'] as const;
export const DataflowSourceKindSchema = z.enum(DATAFLOW_SOURCE_KINDS);
export type DataflowSourceKind = z.infer<typeof DataflowSourceKindSchema>;
export const LoadTypeSchema = z.enum(LOAD_TYPES);
export const ProcessingModeSchema = z.enum(PROCESSING_MODES);

/**
 * A stage is a case-sensitive free string that DataCoolie filters on with comma-separated lists, so a
 * comma would make it unaddressable (reference §2.6).
 */
export const StageSchema = text(100).regex(/^[^,]*$/, { message: 'must not contain commas' });

export const PartitionColumnSchema = z
  .strictObject({
    column: text(255).refine((v) => v.trim() !== '', { message: 'must be a non-empty column name' }),
    expression: longText(2000).nullable().optional(),
  })
  .meta({ id: 'PartitionColumn' });

const columns = z.array(text(255)).max(200);
const sql = longText(100_000);

/**
 * A DataCoolie dataflow: a source (a dataset, a query or a function, read through a connection
 * profile), a destination dataset written through a profile, and the pipeline's settings. Its id is
 * the exported `dataflow_id`, stable for the flow's life (watermarks are keyed by it).
 */
export const DataflowSchema = z
  .object({
    ...auditShape,
    ...softDeleteShape,
    workspace_id: z.uuid(),
    datacoolie_id: z
      .string()
      .describe(
        "The dataflow_id DataCoolie sees (its watermark key), unique in the workspace: the dataflow's id " +
          'unless a document gave another',
      ),
    name: z.string(),
    description: z.string().nullable(),
    stage: z.string().nullable(),
    group_number: z.int().nullable(),
    execution_order: z.int().nullable(),
    processing_mode: ProcessingModeSchema,
    is_active: z.boolean(),
    source_kind: DataflowSourceKindSchema,
    source_connection_id: z.uuid(),
    source_dataset_id: z.uuid().nullable(),
    source_query: z.string().nullable(),
    source_python_function: z.string().nullable(),
    source_watermark_columns: z.array(z.string()),
    source_filter_expression: z.string().nullable(),
    source_configure: z.record(z.string(), z.unknown()),
    destination_connection_id: z.uuid(),
    destination_dataset_id: z.uuid(),
    load_type: LoadTypeSchema,
    merge_keys: z.array(z.string()),
    partition_columns: z.array(z.object({ column: z.string(), expression: z.string().nullable() })),
    destination_configure: z.record(z.string(), z.unknown()),
    transform: z.record(z.string(), z.unknown()),
    configure: z.record(z.string(), z.unknown()),
    pinned_hint_schema_version_id: z
      .uuid()
      .nullable()
      .describe(
        "The source dataset's schema version this dataflow's schema hints come from (exported inline in " +
          '`transform.schema_hints`); null: the hints of the current version, served per source table',
      ),
    dataset_link_id: z
      .uuid()
      .nullable()
      .describe(
        'The lineage hop between the source and destination datasets, when the registry could link them',
      ),
  })
  .meta({ id: 'Dataflow' });
export type Dataflow = z.infer<typeof DataflowSchema>;

const writable = {
  description: longText().nullable().optional(),
  stage: StageSchema.nullable().optional(),
  group_number: int32.nullable().optional(),
  execution_order: int32.nullable().optional(),
  processing_mode: ProcessingModeSchema.optional(),
  is_active: z.boolean().optional(),
  source_dataset_id: z.uuid().nullable().optional(),
  source_query: sql.nullable().optional(),
  source_python_function: text(500).nullable().optional(),
  source_watermark_columns: columns.optional(),
  source_filter_expression: sql.nullable().optional(),
  source_configure: jsonObject.optional(),
  merge_keys: columns.optional(),
  partition_columns: z.array(PartitionColumnSchema).max(50).optional(),
  destination_configure: jsonObject.optional(),
  transform: jsonObject.optional().describe('A DataCoolie Transform, validated with its rules'),
  configure: jsonObject.optional(),
  pinned_hint_schema_version_id: z
    .uuid()
    .nullable()
    .optional()
    .describe('A schema version of the source dataset to take hints from (reference §8.5); null unpins'),
  ...noteShape,
};

/** Exactly one of `source_dataset_id`, `source_query`, `source_python_function` says what is read. */
export const CreateDataflowSchema = z
  .strictObject({
    id: z.uuid().optional().describe('The registry id to keep; generated when absent'),
    datacoolie_id: text(255)
      .optional()
      .describe('The dataflow_id DataCoolie sees (unique in the workspace); the dataflow id when absent'),
    workspace_id: z.uuid(),
    name: text(255),
    source_connection_id: z.uuid(),
    destination_connection_id: z.uuid(),
    destination_dataset_id: z.uuid(),
    load_type: LoadTypeSchema.optional().describe(
      'Default append (the DataCoolie model default); always exported',
    ),
    ...writable,
  })
  .meta({ id: 'CreateDataflow' });
export type CreateDataflow = z.input<typeof CreateDataflowSchema>;

/** The workspace of a dataflow never changes: its id keys its watermark within the workspace. */
export const UpdateDataflowSchema = z
  .strictObject({
    name: text(255).optional(),
    source_connection_id: z.uuid().optional(),
    destination_connection_id: z.uuid().optional(),
    destination_dataset_id: z.uuid().optional(),
    load_type: LoadTypeSchema.optional(),
    ...writable,
    ...rowVersionShape,
  })
  .meta({ id: 'UpdateDataflow' });
export type UpdateDataflow = z.input<typeof UpdateDataflowSchema>;

export const dataflowResource = defineResource({
  path: 'dataflows',
  tag: 'Dataflows',
  name: 'Dataflow',
  read: DataflowSchema,
  create: CreateDataflowSchema,
  update: UpdateDataflowSchema,
  list: {
    filters: {
      workspace_id: { type: 'uuid', ops: ['eq', 'in'] },
      datacoolie_id: { type: 'string', ops: ['eq', 'in'] },
      name: { type: 'string', ops: ['eq', 'like', 'in'] },
      stage: { type: 'string', ops: ['eq', 'in', 'like'] },
      is_active: { type: 'boolean', ops: ['eq'] },
      source_kind: { type: 'string', ops: ['eq', 'in'], values: DATAFLOW_SOURCE_KINDS },
      source_connection_id: { type: 'uuid', ops: ['eq', 'in'] },
      source_dataset_id: { type: 'uuid', ops: ['eq', 'in'] },
      destination_connection_id: { type: 'uuid', ops: ['eq', 'in'] },
      destination_dataset_id: { type: 'uuid', ops: ['eq', 'in'] },
      load_type: { type: 'string', ops: ['eq', 'in'], values: LOAD_TYPES },
      group_number: { type: 'int', ops: ['eq', 'gte', 'lte'] },
      created_at: { type: 'datetime', ops: ['gte', 'lte'] },
      updated_at: { type: 'datetime', ops: ['gte', 'lte'] },
    },
    sortable: ['name', 'stage', 'group_number', 'execution_order', 'created_at', 'updated_at'],
    defaultSort: 'name',
    softDelete: true,
  },
  notFound: 'DATAFLOW_NOT_FOUND',
  writeRole: 'user',
  keys: 'workspace',
  softDelete: true,
  batch: false,
  errors: [
    'DATAFLOW_ALREADY_EXISTS',
    'FORBIDDEN',
    'WORKSPACE_NOT_FOUND',
    'CONNECTION_PROFILE_NOT_FOUND',
    'DATASET_NOT_FOUND',
    'DATAFLOW_WORKSPACE_MISMATCH',
    'DATAFLOW_SOURCE_INVALID',
    'DATAFLOW_DATASET_MISMATCH',
    'DATAFLOW_UNKNOWN_COLUMNS',
    'DATAFLOW_SOURCE_KEY_CONFLICT',
    'DATAFLOW_INVALID',
  ],
  restoreErrors: ['DATAFLOW_ALREADY_EXISTS', 'CONNECTION_PROFILE_NOT_FOUND', 'DATASET_NOT_FOUND'],
});
