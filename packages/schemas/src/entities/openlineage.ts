import { z } from 'zod';
import { FieldTransformationSchema } from './dataset-link.js';
import { SchemaChangeSchema } from './version-change.js';

/**
 * OpenLineage `RunEvent` (https://openlineage.io/spec/2-0-2/OpenLineage.json), as integrations send it
 * (Airflow, Spark, dbt, Flink): only what the intake reads is checked, every other key and facet is
 * accepted as it comes (objects are loose), so that events of newer spec versions and custom facets pass.
 */
export const OPENLINEAGE_EVENT_TYPES = ['START', 'RUNNING', 'COMPLETE', 'ABORT', 'FAIL', 'OTHER'] as const;
export type OpenLineageEventType = (typeof OPENLINEAGE_EVENT_TYPES)[number];

const name = z.string().trim().min(1).max(2000);
const facets = z.record(z.string(), z.unknown());

/** BaseFacet: `_producer`, `_schemaURL`; `_deleted: true` marks a facet removed (spec 2-0). */
const baseFacet = {
  _producer: z.string().optional(),
  _schemaURL: z.string().optional(),
  _deleted: z.boolean().optional(),
};

/** SchemaDatasetFacet: the dataset's fields (`type` optional since facet 1-1-0; nested `fields` allowed). */
export const OpenLineageSchemaFacetSchema = z.looseObject({
  ...baseFacet,
  fields: z
    .array(
      z.looseObject({
        name: z.string(),
        type: z.string().nullish(),
        description: z.string().nullish(),
        fields: z.array(z.record(z.string(), z.unknown())).optional(),
      }),
    )
    .max(10_000)
    .optional(),
});

/**
 * One input field of a column-lineage entry. `transformations` (facet 1-2-0: `type`, `subtype`,
 * `description`, `masking`) are read leniently by the intake: an entry of another shape is left out, not
 * refused (ADR 0052).
 */
export const OpenLineageInputFieldSchema = z.looseObject({
  namespace: name,
  name,
  field: z.string().min(1).max(2000),
  transformations: z.array(z.record(z.string(), z.unknown())).optional(),
});

/** ColumnLineageDatasetFacet: output field → the input fields it is computed from. */
export const OpenLineageColumnLineageFacetSchema = z.looseObject({
  ...baseFacet,
  fields: z
    .record(
      z.string(),
      z.looseObject({
        inputFields: z.array(OpenLineageInputFieldSchema).max(1000),
        transformationDescription: z.string().nullish(),
        transformationType: z.string().nullish(),
      }),
    )
    .optional(),
  dataset: z.array(z.record(z.string(), z.unknown())).optional(),
});

/** A symlink of a dataset (SymlinksDatasetFacet): another name of the same data, e.g. its table. */
const symlinksFacet = z.looseObject({
  ...baseFacet,
  identifiers: z
    .array(z.looseObject({ namespace: name, name, type: z.string().optional() }))
    .max(100)
    .optional(),
});

export const OpenLineageDatasetSchema = z.looseObject({
  namespace: name,
  name,
  facets: z
    .looseObject({
      schema: OpenLineageSchemaFacetSchema.optional(),
      columnLineage: OpenLineageColumnLineageFacetSchema.optional(),
      symlinks: symlinksFacet.optional(),
    })
    .nullish(),
  inputFacets: facets.nullish(),
  outputFacets: facets.nullish(),
});
export type OpenLineageDataset = z.infer<typeof OpenLineageDatasetSchema>;

const datasets = z.array(OpenLineageDatasetSchema).max(1000).nullish();

const producer = z.string().min(1).max(2000);
const schemaURL = z.string().max(2000).optional();
const eventTime = z.iso.datetime({ offset: true, local: true });
const job = z.looseObject({ namespace: name, name, facets: facets.nullish() });

export const OpenLineageRunEventSchema = z
  .looseObject({
    eventType: z
      .enum(OPENLINEAGE_EVENT_TYPES)
      .optional()
      .describe('The run transition; an event without one is recorded as OTHER'),
    eventTime,
    run: z.looseObject({
      runId: z.guid({ error: 'must be a UUID' }),
      facets: facets.nullish(),
    }),
    job,
    inputs: datasets,
    outputs: datasets,
    producer,
    schemaURL,
  })
  .meta({ id: 'OpenLineageRunEvent' });
export type OpenLineageRunEvent = z.input<typeof OpenLineageRunEventSchema>;
export type ParsedOpenLineageRunEvent = z.output<typeof OpenLineageRunEventSchema>;

/** JobEvent (spec 2-0): a job's static lineage, its inputs and outputs, without a run. */
export const OpenLineageJobEventSchema = z
  .looseObject({ eventTime, job, inputs: datasets, outputs: datasets, producer, schemaURL })
  .meta({ id: 'OpenLineageJobEvent' });
export type OpenLineageJobEvent = z.input<typeof OpenLineageJobEventSchema>;
export type ParsedOpenLineageJobEvent = z.output<typeof OpenLineageJobEventSchema>;

/** DatasetEvent (spec 2-0): one dataset's metadata (its facets), without a job or a run. */
export const OpenLineageDatasetEventSchema = z
  .looseObject({ eventTime, dataset: OpenLineageDatasetSchema, producer, schemaURL })
  .meta({ id: 'OpenLineageDatasetEvent' });
export type OpenLineageDatasetEvent = z.input<typeof OpenLineageDatasetEventSchema>;
export type ParsedOpenLineageDatasetEvent = z.output<typeof OpenLineageDatasetEventSchema>;

export const OPENLINEAGE_EVENT_KINDS = ['run', 'job', 'dataset'] as const;
export type OpenLineageEventKind = (typeof OPENLINEAGE_EVENT_KINDS)[number];

const KIND_SCHEMAS = {
  run: OpenLineageRunEventSchema,
  job: OpenLineageJobEventSchema,
  dataset: OpenLineageDatasetEventSchema,
} as const;

/**
 * Which of the three events a body is: its `schemaURL` when it names one (`…#/$defs/JobEvent`), else
 * its shape — a `run` or an `eventType` is a RunEvent, a `dataset` a DatasetEvent, a `job` alone a
 * JobEvent. A body that fits none is checked as a RunEvent (the usual event), for its errors.
 */
export function openLineageEventKind(body: unknown): OpenLineageEventKind {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'run';
  const event = body as Record<string, unknown>;
  const named = /#\/(?:\$defs|definitions)\/(Run|Job|Dataset)Event$/.exec(
    typeof event['schemaURL'] === 'string' ? event['schemaURL'] : '',
  )?.[1];
  if (named) return named.toLowerCase() as OpenLineageEventKind;
  if ('run' in event || 'eventType' in event) return 'run';
  if ('dataset' in event) return 'dataset';
  return 'job' in event ? 'job' : 'run';
}

/**
 * A RunEvent, JobEvent or DatasetEvent. The body is checked against the one event its kind names
 * (`openLineageEventKind`), so that an error names the paths of that event rather than a union's
 * alternatives; the union then types (and documents) the three.
 */
const anyEvent = z.union([
  OpenLineageRunEventSchema,
  OpenLineageJobEventSchema,
  OpenLineageDatasetEventSchema,
]);
export const OpenLineageEventSchema = z
  .preprocess((body, ctx) => {
    const checked = KIND_SCHEMAS[openLineageEventKind(body)].safeParse(body);
    if (!checked.success) for (const issue of checked.error.issues) ctx.addIssue({ ...issue });
    return body;
  }, anyEvent)
  .meta({ id: 'OpenLineageEvent' }) as unknown as typeof anyEvent;
export type OpenLineageEvent = z.input<typeof OpenLineageEventSchema>;
export type ParsedOpenLineageEvent = z.output<typeof OpenLineageEventSchema>;

const olRef = z.object({ namespace: z.string(), name: z.string() });

export const OPENLINEAGE_MATCH_STATUSES = ['matched', 'unknown', 'ambiguous'] as const;

/**
 * Why an intake left a link out (the catalogue code a create through the API would answer, mostly).
 * `FIELD_LINK_TARGET_OCCUPIED` is no longer given either (a target may have several sources, ADR 0052).
 * `DATASET_UNKNOWN` and `DATASET_AMBIGUOUS` are no longer given (an unmatched dataset is reported once, in
 * `datasets` and `unknown_datasets`, not once per pair): they remain for answers stored before, which a
 * replayed event gets back.
 */
export const OPENLINEAGE_SKIP_REASONS = [
  'SELF_LINK',
  'DATASET_UNKNOWN',
  'DATASET_AMBIGUOUS',
  'NO_SCHEMA_VERSION',
  'FIELD_NOT_FOUND',
  'FIELD_BINDING_MISSING',
  'FIELD_ORIGIN_CONFLICT',
  'FIELD_LINK_TARGET_OCCUPIED',
  'NO_DATASET_LINK',
] as const;

/** What an event did (docs/openlineage.md, "Event types"). */
export const OPENLINEAGE_OUTCOMES = ['linked', 'run_failed', 'run_aborted', 'observed'] as const;
export type OpenLineageOutcome = (typeof OPENLINEAGE_OUTCOMES)[number];

/**
 * A matched dataset whose schema facet differs from its current version (ADR 0054): the changes from the
 * version to what the event saw, classified as the crawler classifies them. Nothing is published.
 */
export const OpenLineageSchemaDriftSchema = z
  .object({
    dataset_id: z.uuid(),
    namespace: z.string(),
    name: z.string(),
    compared_version_num: z
      .int()
      .nullable()
      .describe('The version compared with; null: the dataset has none (every field seen is an addition)'),
    class: z.enum(['compatible', 'breaking']).describe('The worst class among the changes'),
    type_comparison: z
      .enum(['types', 'names_only'])
      .describe(
        "`types` (ADR 0057): the facet's type names are read as data types of the dataset's flavor where " +
          'known and compared with the registered types (unknown names as text, a field without a type by ' +
          'name only); `names_only`: observations stored before, compared by name, presence and order',
      ),
    changes: z.array(SchemaChangeSchema),
  })
  .meta({ id: 'OpenLineageSchemaDrift' });
export type OpenLineageSchemaDrift = z.infer<typeof OpenLineageSchemaDriftSchema>;

/** What an intake made of an event (stored with it: a repeated event gets the same answer). */
export const OpenLineageIntakeResultSchema = z
  .object({
    event_kind: z
      .enum(OPENLINEAGE_EVENT_KINDS)
      .describe('The event received: a RunEvent, a JobEvent or a DatasetEvent (spec 2-0)'),
    run_id: z.string().nullable().describe('The run of a RunEvent; null for a JobEvent or a DatasetEvent'),
    event_type: z
      .enum(OPENLINEAGE_EVENT_TYPES)
      .nullable()
      .describe('The run transition of a RunEvent (absent = OTHER); null for a JobEvent or a DatasetEvent'),
    job: olRef.nullable().describe('The job of a RunEvent or a JobEvent; null for a DatasetEvent'),
    dataset: olRef.nullable().describe('The dataset of a DatasetEvent; null for a RunEvent or a JobEvent'),
    event_time: z.string(),
    duplicate: z
      .boolean()
      .describe(
        'Received before (the same run id and event type; for a JobEvent or DatasetEvent the same content): ' +
          'nothing was done again',
      ),
    applied: z
      .boolean()
      .describe(
        "The event's meaning was applied: links written or confirmed (RunEvents of every type but FAIL and " +
          'ABORT, JobEvents), or the dataset observed (DatasetEvents); false for FAIL and ABORT',
      ),
    outcome: z
      .enum(OPENLINEAGE_OUTCOMES)
      .describe(
        '`linked`: inputs → outputs linked (START, RUNNING, COMPLETE, OTHER, JobEvent); `run_failed`, ' +
          '`run_aborted`: recorded and matched only (FAIL, ABORT); `observed`: a DatasetEvent, matched and ' +
          'its schema compared',
      ),
    reason: z
      .string()
      .nullable()
      .describe('Why the event wrote no link (FAIL, ABORT, DatasetEvent); else null'),
    datasets: z.array(
      olRef.extend({
        role: z.enum(['input', 'output']),
        status: z.enum(OPENLINEAGE_MATCH_STATUSES),
        dataset_id: z.uuid().nullable(),
        matched_by: z.string().nullable().describe('`name`, or `symlink:<namespace>/<name>`'),
        candidates: z.array(z.uuid()).describe('Every dataset the name fits, when ambiguous'),
        schema_fields_unknown: z
          .array(z.string())
          .describe(
            "Fields of the event's schema facet that the matched dataset's current version has no column of",
          ),
      }),
    ),
    dataset_links: z.array(
      z.object({
        dataset_link_id: z.uuid(),
        source_dataset_id: z.uuid(),
        target_dataset_id: z.uuid(),
        status: z.enum(['created', 'confirmed']),
      }),
    ),
    field_links: z.array(
      z.object({
        field_link_id: z.uuid(),
        dataset_link_id: z.uuid(),
        source_field: z.string(),
        target_field: z.string(),
        status: z
          .enum(['created', 'confirmed', 'updated'])
          .describe('`updated`: the edge existed and its transformations changed to the ones of this event'),
        transformations: z.array(FieldTransformationSchema),
      }),
    ),
    dataset_field_inputs: z
      .array(
        z.object({
          source: olRef.extend({ field: z.string() }),
          target: olRef,
          transformations: z.array(FieldTransformationSchema),
        }),
      )
      .optional()
      .describe(
        'Input fields that affect the whole output dataset (the `dataset` array of the columnLineage facet ' +
          '1-2-0, e.g. a FILTER or JOIN column): reported here, not stored as field links (ADR 0052)',
      ),
    skipped: z
      .array(
        z.object({
          kind: z.enum(['dataset_link', 'field_link']),
          reason: z.enum(OPENLINEAGE_SKIP_REASONS),
          detail: z.string(),
          source: olRef.extend({ field: z.string().optional() }),
          target: olRef.extend({ field: z.string().optional() }),
        }),
      )
      .describe(
        'Links between matched datasets left out, with the reason (a dataset both read and written: one ' +
          '`SELF_LINK`). A pair or column-lineage entry with an unknown or ambiguous side is not listed: ' +
          'that dataset is, once, in `datasets` (and `unknown_datasets`)',
      ),
    unknown_datasets: z
      .array(olRef.extend({ role: z.enum(['input', 'output']) }))
      .describe(
        'Inputs and outputs no registered dataset answers to, once each (never dropped silently); no link ' +
          'is made to or from them. Each is kept (`GET /api/v1/lineage/unknown-datasets`) with the event, ' +
          'which is applied again when the dataset is registered (ADR 0054)',
      ),
    drift: z
      .array(OpenLineageSchemaDriftSchema)
      .optional()
      .describe(
        'Matched datasets whose schema facet differs from their current version (absent from answers stored before it)',
      ),
  })
  .meta({ id: 'OpenLineageIntakeResult' });
export type OpenLineageIntakeResult = z.infer<typeof OpenLineageIntakeResultSchema>;
