import { z } from 'zod';
import { FieldTransformationSchema } from './dataset-link.js';

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

export const OpenLineageRunEventSchema = z
  .looseObject({
    eventType: z
      .enum(OPENLINEAGE_EVENT_TYPES)
      .optional()
      .describe('The run transition; an event without one is recorded as OTHER'),
    eventTime: z.iso.datetime({ offset: true, local: true }),
    run: z.looseObject({
      runId: z.guid({ error: 'must be a UUID' }),
      facets: facets.nullish(),
    }),
    job: z.looseObject({ namespace: name, name, facets: facets.nullish() }),
    inputs: datasets,
    outputs: datasets,
    producer: z.string().min(1).max(2000),
    schemaURL: z.string().max(2000).optional(),
  })
  .meta({ id: 'OpenLineageRunEvent' });
export type OpenLineageRunEvent = z.input<typeof OpenLineageRunEventSchema>;
export type ParsedOpenLineageRunEvent = z.output<typeof OpenLineageRunEventSchema>;

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

/** What an intake made of an event (stored with it: a repeated event gets the same answer). */
export const OpenLineageIntakeResultSchema = z
  .object({
    run_id: z.string(),
    event_type: z.enum(OPENLINEAGE_EVENT_TYPES),
    job: olRef,
    event_time: z.string(),
    duplicate: z.boolean().describe('The run id and event type were received before: nothing was done again'),
    applied: z.boolean().describe('Links written or confirmed; false for FAIL and ABORT events'),
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
          'is made to or from them',
      ),
  })
  .meta({ id: 'OpenLineageIntakeResult' });
export type OpenLineageIntakeResult = z.infer<typeof OpenLineageIntakeResultSchema>;
