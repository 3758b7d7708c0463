// What the OpenLineage intake observes beyond the registry (ADR 0054): the datasets it did not know, the
// replay of the events that named them, and the schemas matched datasets were seen with.
import { z } from 'zod';
import { pageOf } from '../common/list-query.js';
import { DatasetSchema } from './dataset.js';
import { OpenLineageIntakeResultSchema, OpenLineageSchemaDriftSchema } from './openlineage.js';
import { SchemaChangeSchema } from './version-change.js';

const page = {
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  size: z.coerce.number().int().min(1).max(100).default(50),
};

/** A field as a schema facet sent it: the type is the integration's free text. */
export const ObservedFieldSchema = z
  .object({ name: z.string(), type: z.string().nullable() })
  .meta({ id: 'ObservedField' });

export const UnknownDatasetSchema = z
  .object({
    id: z.uuid(),
    namespace: z.string().describe('As the first event sent it'),
    name: z.string(),
    fields: z
      .array(ObservedFieldSchema)
      .describe("Every field of every schema facet seen, by name (the latest event's type)"),
    first_seen: z.iso.datetime({ offset: true }).describe('The earliest `eventTime` of an event naming it'),
    last_seen: z.iso.datetime({ offset: true }).describe('The latest `eventTime`'),
    event_count: z.int().describe('Events naming it (each counted once)'),
    jobs: z.array(
      z.object({
        namespace: z.string(),
        name: z.string(),
        role: z.enum(['input', 'output']),
        event_count: z.int(),
        first_seen: z.iso.datetime({ offset: true }),
        last_seen: z.iso.datetime({ offset: true }),
      }),
    ),
    registered_dataset_id: z
      .uuid()
      .nullable()
      .describe('The dataset it became (registered here, or matched by a replay); null while unknown'),
    registered_at: z.iso.datetime({ offset: true }).nullable(),
  })
  .meta({ id: 'UnknownDataset' });
export type UnknownDataset = z.infer<typeof UnknownDatasetSchema>;

export const UnknownDatasetQuerySchema = z
  .strictObject({
    namespace: z
      .string()
      .min(1)
      .max(4000)
      .optional()
      .describe('This namespace (normalised: `postgresql://` = `postgres://`)'),
    name: z.string().min(1).max(1000).optional().describe('Names containing this text (case-insensitive)'),
    registered: z
      .enum(['true', 'false'])
      .transform((v) => v === 'true')
      .optional()
      .describe('Only the registered ones (true) or the ones still unknown (false)'),
    ...page,
  })
  .meta({ id: 'UnknownDatasetQuery' });
export type UnknownDatasetQuery = z.output<typeof UnknownDatasetQuerySchema>;
export type UnknownDatasetQueryInput = z.input<typeof UnknownDatasetQuerySchema>;

export const UnknownDatasetPageSchema = pageOf(UnknownDatasetSchema).meta({ id: 'UnknownDatasetPage' });
export type UnknownDatasetPage = z.infer<typeof UnknownDatasetPageSchema>;

/** What one replayed event did: its key and its new answer (stored in place of the first one). */
export const OpenLineageReplayResultSchema = z
  .object({
    events: z.array(z.object({ event_key: z.string(), result: OpenLineageIntakeResultSchema })),
    dataset_links: z.int().describe('Dataset links created or confirmed, over every event'),
    field_links: z.int().describe('Field links created, confirmed or updated, over every event'),
  })
  .meta({ id: 'OpenLineageReplayResult' });
export type OpenLineageReplayResult = z.infer<typeof OpenLineageReplayResultSchema>;

export const RegisterUnknownDatasetSchema = z
  .strictObject({
    system_id: z
      .uuid()
      .optional()
      .describe('The system to create it on; default: the one system its namespace resolves to'),
    dataset: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        "Fields of the dataset's create body (`object_name`, `layer`, the kind's attributes such as a topic's " +
          '`format`): they replace the ones derived from the name',
      ),
    publish_schema: z
      .boolean()
      .default(false)
      .describe('Publish the fields seen as version 1 (native types as sent, every column nullable)'),
  })
  .meta({ id: 'RegisterUnknownDataset' });
export type RegisterUnknownDataset = z.input<typeof RegisterUnknownDatasetSchema>;

export const RegisterUnknownDatasetResultSchema = z
  .object({
    unknown_dataset: UnknownDatasetSchema,
    dataset: DatasetSchema,
    schema_version_num: z.int().nullable().describe('The version published; null without `publish_schema`'),
    replay: OpenLineageReplayResultSchema,
  })
  .meta({ id: 'RegisterUnknownDatasetResult' });
export type RegisterUnknownDatasetResult = z.infer<typeof RegisterUnknownDatasetResultSchema>;

export const OpenLineageReplaySchema = z
  .strictObject({
    run_id: z.uuid().optional().describe('Every stored event of this run'),
    unknown_dataset_id: z.uuid().optional().describe('Every stored event that named this unknown dataset'),
  })
  .refine((b) => (b.run_id === undefined) !== (b.unknown_dataset_id === undefined), {
    message: 'name exactly one of run_id and unknown_dataset_id',
  })
  .meta({ id: 'OpenLineageReplay' });
export type OpenLineageReplay = z.input<typeof OpenLineageReplaySchema>;

/** The latest schema facet each job sent for a dataset, with its drift from the current version. */
export const ObservedSchemaSchema = z
  .object({
    id: z.uuid(),
    dataset_id: z.uuid(),
    event_key: z.string().describe('The first event of the run that sent this schema'),
    run_id: z.uuid().nullable(),
    job: z.object({ namespace: z.string(), name: z.string() }).nullable().describe('Null: a DatasetEvent'),
    observed_at: z.iso
      .datetime({ offset: true })
      .describe("That event's `eventTime` (a later event of the run sending the same schema adds no row)"),
    fields: z.array(ObservedFieldSchema),
    compared_version_num: z.int().nullable().describe('The version compared with, then current'),
    drift: z.enum(['none', 'compatible', 'breaking']),
    type_comparison: OpenLineageSchemaDriftSchema.shape.type_comparison,
    changes: z.array(SchemaChangeSchema),
  })
  .meta({ id: 'ObservedSchema' });
export type ObservedSchema = z.infer<typeof ObservedSchemaSchema>;
