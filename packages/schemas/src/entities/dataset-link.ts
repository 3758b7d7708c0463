import { z } from 'zod';
import { auditShape, noteShape, rowVersionShape, softDeleteShape } from '../common/audit.js';
import { defineResource } from '../resource.js';
import type { DatasetKind, DatasetLayer } from './dataset.js';
import type { EngineRole } from './engine.js';

/** Lineage direction: a link's target layer comes strictly after its source layer (AIDE v2 §1.4). */
export const LAYER_ORDER: Readonly<Record<DatasetLayer, number>> = {
  source: 0,
  cdc: 1,
  kafka: 2,
  raw: 3,
  core: 4,
};

/** Whether `value` names a dataset layer. */
export const isDatasetLayer = (value: string | null | undefined): value is DatasetLayer =>
  typeof value === 'string' && Object.hasOwn(LAYER_ORDER, value);

/**
 * The one lineage-direction rule of a hop source → target, by the two datasets' layers: `missing` when
 * either has none, `reversed` when the target's layer is not strictly after the source's, else `ordered`.
 * Links, lake syncs and dataflow lineage all apply it.
 */
export function linkLayerOrder(
  sourceLayer: string | null | undefined,
  targetLayer: string | null | undefined,
): 'ordered' | 'reversed' | 'missing' {
  if (!isDatasetLayer(sourceLayer) || !isDatasetLayer(targetLayer)) return 'missing';
  return LAYER_ORDER[targetLayer] > LAYER_ORDER[sourceLayer] ? 'ordered' : 'reversed';
}

/** Which engines may drive which hops: (engine role, source kind → target kind) (AIDE v2 §4.8). */
export const ENGINE_LINK_COMPATIBILITY: readonly {
  role: EngineRole;
  source_kind: DatasetKind;
  target_kind: DatasetKind;
}[] = [
  { role: 'cdc', source_kind: 'rdbms', target_kind: 'kafka' },
  { role: 'compute', source_kind: 'kafka', target_kind: 'hive' },
  { role: 'compute', source_kind: 'hive', target_kind: 'hive' },
];

/** One pipeline hop source → target, pinned to one schema version on each side. */
export const DatasetLinkSchema = z
  .object({
    ...auditShape,
    ...softDeleteShape,
    source_dataset_id: z.uuid(),
    target_dataset_id: z.uuid(),
    source_schema_id: z
      .uuid()
      .nullable()
      .describe('Null: the source had no published version when OpenLineage linked it (ADR 0054)'),
    target_schema_id: z
      .uuid()
      .nullable()
      .describe('Null: the target had no published version when OpenLineage linked it (ADR 0054)'),
    engine_id: z.uuid().nullable(),
  })
  .meta({ id: 'DatasetLink' });
export type DatasetLink = z.infer<typeof DatasetLinkSchema>;

export const CreateDatasetLinkSchema = z
  .strictObject({
    source_dataset_id: z.uuid(),
    target_dataset_id: z.uuid(),
    source_schema_id: z.uuid(),
    target_schema_id: z.uuid(),
    engine_id: z.uuid().nullable().optional(),
    ...noteShape,
  })
  .meta({ id: 'CreateDatasetLink' });
export type CreateDatasetLink = z.input<typeof CreateDatasetLinkSchema>;

/** The datasets of a link never change; the pins move (re-pin) and the engine attaches or detaches (null). */
export const UpdateDatasetLinkSchema = z
  .strictObject({
    source_schema_id: z.uuid().optional(),
    target_schema_id: z.uuid().optional(),
    engine_id: z.uuid().nullable().optional(),
    ...noteShape,
    ...rowVersionShape,
  })
  .meta({ id: 'UpdateDatasetLink' });
export type UpdateDatasetLink = z.input<typeof UpdateDatasetLinkSchema>;

export const datasetLinkResource = defineResource({
  path: 'dataset-links',
  tag: 'Dataset links',
  name: 'DatasetLink',
  read: DatasetLinkSchema,
  create: CreateDatasetLinkSchema,
  update: UpdateDatasetLinkSchema,
  list: {
    filters: {
      source_dataset_id: { type: 'uuid', ops: ['eq', 'in'] },
      target_dataset_id: { type: 'uuid', ops: ['eq', 'in'] },
      source_schema_id: { type: 'uuid', ops: ['eq'] },
      target_schema_id: { type: 'uuid', ops: ['eq'] },
      engine_id: { type: 'uuid', ops: ['eq'] },
      created_at: { type: 'datetime', ops: ['gte', 'lte'] },
      updated_at: { type: 'datetime', ops: ['gte', 'lte'] },
    },
    sortable: ['created_at', 'updated_at'],
    defaultSort: 'created_at',
    softDelete: true,
  },
  notFound: 'DATASET_LINK_NOT_FOUND',
  writeRole: 'user',
  keys: 'catalogue',
  softDelete: true,
  batch: false,
  errors: [
    'DATASET_NOT_FOUND',
    'DATASET_SCHEMA_NOT_FOUND',
    'DATASET_LINK_ALREADY_EXISTS',
    'DATASET_LINK_SELF_REFERENCE',
    'DATASET_LINK_LAYER_ORDER',
    'DATASET_LINK_LAYER_MISSING',
    'SCHEMA_DATASET_MISMATCH',
    'ENGINE_NOT_FOUND',
    'ENGINE_INCOMPATIBLE_LINK',
  ],
  deleteErrors: [],
  restoreErrors: [
    'DATASET_LINK_ALREADY_EXISTS',
    'DATASET_NOT_FOUND',
    'DATASET_LINK_LAYER_ORDER',
    'DATASET_LINK_LAYER_MISSING',
    'ENGINE_NOT_FOUND',
  ],
});

/** How an input field feeds an output field: OpenLineage's `columnLineage` facet 1-2-0 vocabulary. */
export const FIELD_TRANSFORMATION_TYPES = ['DIRECT', 'INDIRECT'] as const;

/**
 * Subtypes the facet names (`IDENTITY`, `TRANSFORMATION`, `AGGREGATION`, `FILTER`, `JOIN`, `GROUP_BY`,
 * `SORT`, `WINDOW`, `CONDITIONAL`): documentation only, any text of the shape is kept (integrations add
 * their own).
 */
export const KNOWN_FIELD_TRANSFORMATION_SUBTYPES = [
  'IDENTITY',
  'TRANSFORMATION',
  'AGGREGATION',
  'FILTER',
  'JOIN',
  'GROUP_BY',
  'SORT',
  'WINDOW',
  'CONDITIONAL',
] as const;

/**
 * What a field link's transformations make of it (ADR 0052): `copy` — the target takes the source's value
 * (no transformation known, or every DIRECT one is IDENTITY); `derived` — computed from it (a DIRECT
 * AGGREGATION, TRANSFORMATION, …); `indirect` — it only influences the target (INDIRECT only: a filter,
 * a join key). render-sql projects copies only; compat compares types of copies only.
 */
export function fieldLinkRole(
  transformations: readonly { type: string; subtype?: string | null }[],
): 'copy' | 'derived' | 'indirect' {
  const direct = transformations.filter((t) => t.type === 'DIRECT');
  if (transformations.length > 0 && direct.length === 0) return 'indirect';
  return direct.every((t) => t.subtype === 'IDENTITY') ? 'copy' : 'derived';
}

/** At most this many transformations on one field link. */
export const MAX_FIELD_TRANSFORMATIONS = 20;

/** One transformation of a source field into its target field (ADR 0052). */
export const FieldTransformationSchema = z
  .strictObject({
    type: z.enum(FIELD_TRANSFORMATION_TYPES),
    subtype: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'letters, digits and underscores, e.g. AGGREGATION')
      .nullable()
      .optional(),
    description: z.string().max(2000).nullable().optional(),
    masking: z.boolean().nullable().optional(),
  })
  .meta({ id: 'FieldTransformation' });
export type FieldTransformation = z.infer<typeof FieldTransformationSchema>;

const transformationsShape = z
  .array(FieldTransformationSchema)
  .max(MAX_FIELD_TRANSFORMATIONS)
  .describe(
    'How the source feeds the target (columnLineage facet 1-2-0): empty when unknown. A target may have ' +
      'several sources in a link, each its own field link with its transformations (ADR 0052)',
  );

/**
 * Column lineage at identity level: a source field feeds a target field inside one dataset link. A
 * target field may have several sources in a link (`agg = f(a, b)`), one field link each (ADR 0052).
 */
export const FieldLinkSchema = z
  .object({
    ...auditShape,
    dataset_link_id: z.uuid(),
    source_field_id: z.uuid(),
    target_field_id: z.uuid(),
    transformations: transformationsShape,
  })
  .meta({ id: 'FieldLink' });
export type FieldLink = z.infer<typeof FieldLinkSchema>;

const fieldLinkEnds = {
  source_field_id: z.uuid(),
  target_field_id: z.uuid(),
  transformations: transformationsShape.optional(),
  ...noteShape,
};

export const CreateFieldLinkSchema = z
  .strictObject({ dataset_link_id: z.uuid(), ...fieldLinkEnds })
  .meta({ id: 'CreateFieldLink' });
export type CreateFieldLink = z.input<typeof CreateFieldLinkSchema>;

/** The body under `/dataset-links/{id}/field-links`: the path names the link (a body value is ignored). */
export const CreateLinkFieldLinkSchema = z
  .strictObject({ dataset_link_id: z.uuid().optional(), ...fieldLinkEnds })
  .meta({ id: 'CreateLinkFieldLink' });
export type CreateLinkFieldLink = z.input<typeof CreateLinkFieldLinkSchema>;

/** `/dataset-links/{id}/field-links/bulk`: a JSON array, all or nothing, at most MAX_BATCH_SIZE items. */
export const BulkFieldLinksSchema = z.array(CreateLinkFieldLinkSchema).min(1).meta({ id: 'BulkFieldLinks' });

/** The ends of a field link are its identity: only the note and the transformations change. */
export const UpdateFieldLinkSchema = z
  .strictObject({ transformations: transformationsShape.optional(), ...noteShape, ...rowVersionShape })
  .meta({ id: 'UpdateFieldLink' });
export type UpdateFieldLink = z.input<typeof UpdateFieldLinkSchema>;

/** Errors of creating field links (single, nested or bulk). */
export const FIELD_LINK_CREATE_ERRORS = [
  'DATASET_LINK_NOT_FOUND',
  'FIELD_NOT_FOUND',
  'FIELD_LINK_ALREADY_EXISTS',
  'FIELD_LINK_SOURCE_DATASET_MISMATCH',
  'FIELD_LINK_TARGET_DATASET_MISMATCH',
  'FIELD_ORIGIN_CONFLICT',
  'FIELD_BINDING_MISSING',
] as const;

export const fieldLinkResource = defineResource({
  path: 'field-links',
  tag: 'Field links',
  name: 'FieldLink',
  read: FieldLinkSchema,
  create: CreateFieldLinkSchema,
  update: UpdateFieldLinkSchema,
  list: {
    filters: {
      dataset_link_id: { type: 'uuid', ops: ['eq', 'in'] },
      source_field_id: { type: 'uuid', ops: ['eq', 'in'] },
      target_field_id: { type: 'uuid', ops: ['eq', 'in'] },
      created_at: { type: 'datetime', ops: ['gte', 'lte'] },
    },
    sortable: ['created_at', 'updated_at'],
    defaultSort: 'created_at',
    softDelete: false,
  },
  notFound: 'FIELD_LINK_NOT_FOUND',
  writeRole: 'user',
  keys: 'catalogue',
  softDelete: false,
  batch: false,
  errors: FIELD_LINK_CREATE_ERRORS,
  deleteErrors: [],
});
