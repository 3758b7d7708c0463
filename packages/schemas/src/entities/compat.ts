import { z } from 'zod';

/**
 * Per-field issues of the ETL pre-flight (AIDE v2 §4.10), plus `type_narrowing`: the same type with a
 * smaller limit on the target (`varchar(255)` → `varchar(50)`), or a limit where the source has none.
 */
export const FIELD_COMPAT_ISSUES = [
  'source_unbound',
  'target_unbound',
  'type_incompatible',
  'type_unsafe_cast',
  'type_narrowing',
  'type_needs_cast',
  'nullability_warn',
] as const;
export type FieldCompatIssue = (typeof FIELD_COMPAT_ISSUES)[number];

export const COMPAT_SEVERITIES = ['ok', 'warn', 'error'] as const;
export type CompatSeverity = (typeof COMPAT_SEVERITIES)[number];

/** Issues that make a row `error` (the rest make it `warn`). */
export const ERROR_ISSUES: readonly FieldCompatIssue[] = [
  'source_unbound',
  'target_unbound',
  'type_incompatible',
  'type_unsafe_cast',
  'type_narrowing',
];

const ref = z.object({ id: z.uuid(), name: z.string() });

export const PinDriftSideSchema = z.object({
  schema_id: z.uuid(),
  pinned_version: z.int(),
  latest_version: z.int(),
  has_drift: z.boolean(),
});

export const FieldCompatRowSchema = z
  .object({
    field_link_id: z.uuid(),
    source_field: ref,
    target_field: ref,
    source_type: z
      .string()
      .nullable()
      .describe('Rendered type in the pinned source version; null when unbound'),
    target_type: z.string().nullable(),
    cast_rule_id: z.uuid().nullable(),
    issues: z
      .array(z.enum(FIELD_COMPAT_ISSUES))
      .describe(
        'Types are compared for links that copy the value only (no transformation known, or DIRECT ' +
          'IDENTITY); an aggregate or a filter column is checked for its bindings only (ADR 0052)',
      ),
    severity: z.enum(COMPAT_SEVERITIES),
  })
  .meta({ id: 'FieldCompatRow' });
export type FieldCompatRow = z.infer<typeof FieldCompatRowSchema>;

export const CompatSummarySchema = z.object({ ok: z.int(), warn: z.int(), error: z.int(), total: z.int() });

export const DatasetLinkCompatReportSchema = z
  .object({
    dataset_link_id: z.uuid(),
    pin_drift: z.object({ source: PinDriftSideSchema, target: PinDriftSideSchema }),
    field_compat: z.array(FieldCompatRowSchema),
    summary: CompatSummarySchema,
    status: z.enum(COMPAT_SEVERITIES),
  })
  .meta({ id: 'DatasetLinkCompatReport' });
export type DatasetLinkCompatReport = z.infer<typeof DatasetLinkCompatReportSchema>;

const datasetRef = z.object({ id: z.uuid(), object_name: z.string() });

export const DatasetLinkCompatSummarySchema = z
  .object({
    dataset_link_id: z.uuid(),
    source_dataset: datasetRef,
    target_dataset: datasetRef,
    status: z.enum(COMPAT_SEVERITIES),
    summary: CompatSummarySchema,
    pin_drift: z.object({ source: z.boolean(), target: z.boolean() }),
    updated_at: z.iso.datetime({ offset: true }),
  })
  .meta({ id: 'DatasetLinkCompatSummary' });
export type DatasetLinkCompatSummary = z.infer<typeof DatasetLinkCompatSummarySchema>;

const statusList = z
  .string()
  .max(200)
  .transform((v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s.length > 0),
  )
  .pipe(z.array(z.enum(COMPAT_SEVERITIES)).min(1));

/** `GET /dataset-links/compat`: the original's filters; pages of at most 100. */
export const DatasetLinkCompatQuerySchema = z
  .strictObject({
    status: z.enum(COMPAT_SEVERITIES).optional(),
    status__in: statusList.optional(),
    has_drift: z
      .enum(['true', 'false'])
      .transform((v) => v === 'true')
      .optional(),
    dataset_id: z.uuid().optional().describe('Links with this dataset on either side'),
    system_id: z.uuid().optional().describe('Links with a dataset of this system on either side'),
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    size: z.coerce.number().int().min(1).max(100).default(50),
  })
  .meta({ id: 'DatasetLinkCompatQuery' });
export type DatasetLinkCompatQuery = z.output<typeof DatasetLinkCompatQuerySchema>;

/**
 * One field link of a link that the previewed version touches: its ETL pre-flight now and as it would
 * be with the link re-pinned to the would-be version. `breaks`: `error` after, not `error` now.
 */
export const ImpactFieldLinkSchema = z
  .object({
    field_link_id: z.uuid(),
    source_field: ref,
    target_field: ref,
    severity_now: z.enum(COMPAT_SEVERITIES),
    severity_after: z.enum(COMPAT_SEVERITIES),
    issues_after: z.array(z.enum(FIELD_COMPAT_ISSUES)),
    source_type_after: z.string().nullable(),
    target_type_after: z.string().nullable(),
    breaks: z.boolean(),
  })
  .meta({ id: 'ImpactFieldLink' });
export type ImpactFieldLink = z.infer<typeof ImpactFieldLinkSchema>;

/** A link with the dataset on one side, before and after the would-be version (re-pinned to it). */
export const ImpactLinkSchema = z
  .object({
    dataset_link_id: z.uuid(),
    side: z
      .enum(['source', 'target'])
      .describe('`source`: the dataset feeds this link (a downstream hop); `target`: it is fed by it'),
    source_dataset: datasetRef,
    target_dataset: datasetRef,
    status_now: z.enum(COMPAT_SEVERITIES),
    status_after: z.enum(COMPAT_SEVERITIES),
    summary_after: CompatSummarySchema,
    breaks: z.boolean().describe('Some field link is `error` after and was not before'),
    field_links: z.array(ImpactFieldLinkSchema),
  })
  .meta({ id: 'ImpactLink' });
export type ImpactLink = z.infer<typeof ImpactLinkSchema>;

/**
 * A dataflow reading or writing the dataset (issue 25): the columns it names on the dataset's side
 * (the source's watermark columns; the destination's merge keys and partition columns) that the
 * would-be version lacks. `breaks`: some are missing.
 */
export const ImpactDataflowSchema = z
  .object({
    dataflow_id: z.uuid(),
    name: z.string(),
    workspace_id: z.uuid(),
    side: z
      .enum(['source', 'destination'])
      .describe('`source`: the dataflow reads the dataset (a downstream hop); `destination`: it writes it'),
    other_dataset: datasetRef.nullable().describe('The dataset at the other end (null: a query source)'),
    dataset_link_id: z.uuid().nullable(),
    is_active: z.boolean(),
    missing_columns: z.array(z.string()),
    breaks: z.boolean(),
  })
  .meta({ id: 'ImpactDataflow' });
export type ImpactDataflow = z.infer<typeof ImpactDataflowSchema>;

/** What publishing a version would break (ADR 0021). Nothing is written to compute it. */
export const SchemaVersionImpactSchema = z
  .object({
    dataset_id: z.uuid(),
    current_version_num: z.int().nullable().describe('The current version (highest with bindings)'),
    summary: z.object({
      links: z.int(),
      breaking_links: z.int(),
      breaking_field_links: z.int(),
      dataflows: z.int(),
      breaking_dataflows: z.int(),
    }),
    links: z.array(ImpactLinkSchema).describe('Downstream links (`side: source`) first, then upstream'),
    dataflows: z
      .array(ImpactDataflowSchema)
      .describe('Dataflows reading the dataset (`side: source`) first, then those writing it'),
  })
  .meta({ id: 'SchemaVersionImpact' });
export type SchemaVersionImpact = z.infer<typeof SchemaVersionImpactSchema>;

/**
 * Why a column of a rendered statement is left out or left uncast. `FIELD_NOT_RENDERABLE`: the target
 * column is not `SELECT source AS target` — several direct sources, or a direct transformation other than
 * IDENTITY (ADR 0052); one warning per field link of that column.
 */
export const RENDER_SQL_WARNINGS = [
  'FIELD_LINK_BROKEN',
  'FIELD_NOT_RENDERABLE',
  'TYPE_NOT_CASTABLE',
  'NO_CDC_ENGINE',
  'CDC_ENGINE_AMBIGUOUS',
] as const;

/** `POST /dataset-links/{id}/render-sql`: the hop's INSERT … SELECT in the engine's dialect (AIDE v2 §9.5). */
export const RenderSqlResultSchema = z
  .object({
    engine_id: z.uuid(),
    engine_kind: z.string(),
    sql: z.string().describe('Deterministic: the same link, versions and engine give the same text'),
    warnings: z.array(
      z.object({
        code: z.enum(RENDER_SQL_WARNINGS),
        field_link_id: z.uuid().nullable(),
        field_name: z.string().nullable().describe('The target column'),
        detail: z.string(),
      }),
    ),
  })
  .meta({ id: 'RenderSqlResult' });
export type RenderSqlResult = z.infer<typeof RenderSqlResultSchema>;
