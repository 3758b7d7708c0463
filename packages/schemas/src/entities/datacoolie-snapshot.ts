import { z } from 'zod';
import { wireInt } from '../common/text.js';

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
    description: z
      .string()
      .nullable()
      .optional()
      .describe(
        "The profile's description, present when it has one (DataCoolie's models ignore the key; " +
          'an exported document keeps it)',
      ),
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

/**
 * The fields of a snapshot hint, in the order of a hint tuple: a snapshot carries hundreds of
 * thousands of hints, written as arrays to keep the document small and quick to parse.
 */
export const SNAPSHOT_HINT_FIELDS = [
  'column_name',
  'data_type',
  'format',
  'precision',
  'scale',
  'default_value',
  'ordinal_position',
  'is_active',
] as const;

export const SnapshotHintTupleSchema = z.tuple([
  z.string(),
  z.string(),
  z.string().nullable(),
  z.int().nullable(),
  z.int().nullable(),
  z.string().nullable(),
  z.int().nullable(),
  z.boolean(),
]);
export type SnapshotHintTuple = z.infer<typeof SnapshotHintTupleSchema>;

/** The hints of one source table in a snapshot: tuples of SNAPSHOT_HINT_FIELDS. */
export const SnapshotHintGroupSchema = z
  .object({
    connection_id: z.string(),
    schema_name: z.string().nullable(),
    table_name: z.string(),
    hints: z.array(SnapshotHintTupleSchema),
  })
  .meta({ id: 'DataCoolieSnapshotHintGroup' });
export type SnapshotHintGroup = z.infer<typeof SnapshotHintGroupSchema>;

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

/**
 * A dataflow whose ends name their connection by id (the snapshot lists each connection once). The
 * JSON objects (`transform`, the `configure`s) are as stored: DataCoolie's models fill their defaults.
 */
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
    hint_fields: z.array(z.string()).describe('The fields of each hint tuple (SNAPSHOT_HINT_FIELDS)'),
    schema_hints: z.array(SnapshotHintGroupSchema),
    excluded: z.array(DataCoolieExclusionSchema),
  })
  .meta({ id: 'DataCoolieSnapshot' });
export type DataCoolieSnapshot = z.infer<typeof DataCoolieSnapshotSchema>;

/** A snapshot is paged past this many items (connections, dataflows and hint groups, in that order). */
export const SNAPSHOT_MAX_PAGE_SIZE = 25_000;
export const SNAPSHOT_DEFAULT_PAGE_SIZE = 10_000;

/**
 * The snapshot query: the first page (no cursor) builds or reuses the workspace's current snapshot;
 * later pages name it by `cursor`, so every page comes from the same revision.
 */
export const DataCoolieSnapshotQuerySchema = z
  .strictObject({
    cursor: z
      .string()
      .regex(/^[0-9a-f-]{36}\.[0-9]{1,6}$/, { message: 'must be a cursor from a previous page' })
      .optional(),
    page_size: wireInt(100, SNAPSHOT_MAX_PAGE_SIZE)
      .optional()
      .describe(`Items per page (default ${SNAPSHOT_DEFAULT_PAGE_SIZE}, at most ${SNAPSHOT_MAX_PAGE_SIZE})`),
  })
  .meta({ id: 'DataCoolieSnapshotQuery' });
export type DataCoolieSnapshotQuery = { cursor?: string | undefined; page_size?: number | undefined };

/** One page of a snapshot: its items, the revision they belong to and the cursor of the next page. */
export const DataCoolieSnapshotPageSchema = DataCoolieSnapshotSchema.extend({
  page: z.int().min(1),
  pages: z.int().min(1),
  next_cursor: z.string().nullable(),
}).meta({ id: 'DataCoolieSnapshotPage' });
export type DataCoolieSnapshotPage = z.infer<typeof DataCoolieSnapshotPageSchema>;
