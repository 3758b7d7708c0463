import { z } from 'zod';

const json = z.record(z.string(), z.unknown());

/** A connection as DataCoolie reads it (reference §1.10): secrets as names plus `secrets_ref`. */
export const DataCoolieConnectionSchema = z
  .object({
    connection_id: z.string(),
    workspace_id: z.string().nullable(),
    name: z.string(),
    connection_type: z.string(),
    format: z.string(),
    catalog: z.string().nullable(),
    database: z.string().nullable(),
    configure: json,
    secrets_ref: z.record(z.string(), z.array(z.string())).nullable(),
    is_active: z.boolean(),
  })
  .meta({ id: 'DataCoolieConnection' });
export type DataCoolieConnection = z.infer<typeof DataCoolieConnectionSchema>;

export const DataCoolieSchemaHintSchema = z
  .object({
    column_name: z.string(),
    data_type: z.string(),
    format: z.string().nullable(),
    precision: z.int().nullable(),
    scale: z.int().nullable(),
    default_value: z.string().nullable(),
    ordinal_position: z.int().nullable(),
    is_active: z.boolean(),
  })
  .meta({ id: 'DataCoolieSchemaHint' });
export type DataCoolieSchemaHint = z.infer<typeof DataCoolieSchemaHintSchema>;

/** The hints of one source table, keyed as DataCoolie keys them: `(connection_id, schema, table)`. */
export const DataCoolieSchemaHintGroupSchema = z
  .object({
    connection_id: z.string(),
    schema_name: z.string().nullable(),
    table_name: z.string(),
    hints: z.array(DataCoolieSchemaHintSchema),
  })
  .meta({ id: 'DataCoolieSchemaHintGroup' });
export type DataCoolieSchemaHintGroup = z.infer<typeof DataCoolieSchemaHintGroupSchema>;

const partitionColumn = z.object({ column: z.string(), expression: z.string().nullable() });

/** A dataflow whose ends name their connection by id (the snapshot lists each connection once). */
export const DataCoolieSnapshotDataflowSchema = z
  .object({
    dataflow_id: z.string(),
    workspace_id: z.string().nullable(),
    name: z.string().nullable(),
    description: z.string().nullable(),
    stage: z.string().nullable(),
    group_number: z.int().nullable(),
    execution_order: z.int().nullable(),
    processing_mode: z.string(),
    is_active: z.boolean(),
    source: z.object({
      connection_id: z.string(),
      schema_name: z.string().nullable(),
      table: z.string().nullable(),
      query: z.string().nullable(),
      python_function: z.string().nullable(),
      watermark_columns: z.array(z.string()),
      filter_expression: z.string().nullable(),
      configure: json,
    }),
    destination: z.object({
      connection_id: z.string(),
      schema_name: z.string().nullable(),
      table: z.string(),
      load_type: z.string(),
      merge_keys: z.array(z.string()),
      partition_columns: z.array(partitionColumn),
      configure: json,
    }),
    transform: json,
    configure: json,
  })
  .meta({ id: 'DataCoolieSnapshotDataflow' });
export type DataCoolieSnapshotDataflow = z.infer<typeof DataCoolieSnapshotDataflowSchema>;

/** What the export left out because it no longer makes valid DataCoolie metadata, and why. */
export const DataCoolieExclusionSchema = z
  .object({
    kind: z.enum(['connection', 'dataflow', 'schema_hint']),
    id: z.string(),
    name: z.string().nullable(),
    reason: z.string(),
  })
  .meta({ id: 'DataCoolieExclusion' });
export type DataCoolieExclusion = z.infer<typeof DataCoolieExclusionSchema>;

/**
 * A workspace's complete DataCoolie scope, active and inactive, read in one transaction (reference
 * §8.6 item 2). `revision` is a hash of the content: the same revision means the same metadata.
 */
export const DataCoolieSnapshotSchema = z
  .object({
    workspace_id: z.uuid(),
    workspace_code: z.string(),
    revision: z.string(),
    generated_at: z.iso.datetime({ offset: true }),
    connections: z.array(DataCoolieConnectionSchema),
    dataflows: z.array(DataCoolieSnapshotDataflowSchema),
    schema_hints: z.array(DataCoolieSchemaHintGroupSchema),
    excluded: z.array(DataCoolieExclusionSchema),
  })
  .meta({ id: 'DataCoolieSnapshot' });
export type DataCoolieSnapshot = z.infer<typeof DataCoolieSnapshotSchema>;
