import { z } from 'zod';
import { noteShape } from '../common/audit.js';
import { ItemErrorSchema } from '../common/error-response.js';
import { jsonObject, longText, positiveInt32, text, wireInt } from '../common/text.js';
import { SchemaVersionImpactSchema } from './compat.js';
import { CompatibilityOverrideSchema } from './compatibility-override.js';
import { FieldOriginSchema } from './field.js';
import {
  columnAttributesReadShape,
  columnAttributesShape,
  tableStructureReadShape,
  tableStructureShape,
} from './table-structure.js';
import { SlotSchema, type TypeInstanceTree, TypeInstanceTreeSchema } from './type-instance.js';
import { versionChangeShape } from './version-change.js';

/** A type tree to publish: a data type code of the dataset's flavor, its params, and child types by slot. */
export interface TypeSpec {
  data_type: string;
  params?: Record<string, unknown> | null | undefined;
  children?: { slot: string; type: TypeSpec }[] | undefined;
}

export const TypeSpecSchema: z.ZodType<TypeSpec, TypeSpec> = z
  .strictObject({
    data_type: text().describe("A data type code of the dataset's flavor (its own, else its system's)"),
    params: jsonObject.nullable().optional(),
    get children() {
      return z
        .array(z.strictObject({ slot: SlotSchema, type: TypeSpecSchema }))
        .max(1000)
        .optional();
    },
  })
  .meta({ id: 'TypeSpec' });

/** A type tree rendered without being stored: what a column of that type would print as. */
export const RenderTypeSpecRequestSchema = z
  .strictObject({
    system_flavor_id: z.uuid().describe('The flavor whose data types the spec names by code'),
    type: TypeSpecSchema,
  })
  .meta({ id: 'RenderTypeSpecRequest' });
export type RenderTypeSpecRequest = z.infer<typeof RenderTypeSpecRequestSchema>;

export const RenderedTypeSpecSchema = z
  .object({ rendered: z.string().describe('The type text, e.g. `numeric(12,2)` or `integer[]`') })
  .meta({ id: 'RenderedTypeSpec' });
export type RenderedTypeSpec = z.infer<typeof RenderedTypeSpecSchema>;

export const PublishColumnSchema = z
  .strictObject({
    name: longText(1000).min(1),
    nullable: z.boolean().default(true),
    type: TypeSpecSchema.nullable().describe(
      'The normalised type; null only for a native type with no data type in the flavor (native_type required)',
    ),
    path: longText(4000).nullable().optional(),
    origin: FieldOriginSchema.optional(),
    ...columnAttributesShape,
  })
  .refine((c) => c.type !== null || Boolean(c.native_type), {
    message: 'a column without a type must have its native_type',
    path: ['native_type'],
  })
  .meta({ id: 'PublishColumn' });
export type PublishColumn = z.input<typeof PublishColumnSchema>;

/** The body of a whole version: columns in order, the table's keys, indexes and kind. */
export const publishVersionShape = {
  version_num: positiveInt32
    .optional()
    .describe('Assigned by the server when omitted; when given, it must be the next number (highest + 1)'),
  // Zero columns is a table too (`CREATE TABLE t ()`, a dataset known by name only; ADR 0054).
  columns: z.array(PublishColumnSchema).max(5000),
  schema: jsonObject.nullable().optional(),
  extra: jsonObject.nullable().optional(),
  ...noteShape,
  ...tableStructureShape,
  force_reason: z
    .string()
    .trim()
    .min(1)
    .max(2000)
    .optional()
    .describe(
      "Publish even though the dataset's compatibility level refuses the change (superusers only, ADR " +
        '0048): the reason is kept in the version history with the violations it overrode',
    ),
};

/** Column names are unique, and keys name columns of the version. */
export function checkPublishedVersion(
  v: {
    columns: readonly { name: string }[];
    primary_key?: { columns: readonly string[] } | null | undefined;
    unique_constraints?: readonly { columns: readonly string[] }[] | undefined;
    foreign_keys?: readonly { columns: readonly string[] }[] | undefined;
  },
  ctx: z.core.$RefinementCtx,
): void {
  const names = new Set(v.columns.map((c) => c.name));
  if (names.size !== v.columns.length) {
    ctx.addIssue({ code: 'custom', message: 'column names must be unique', path: ['columns'] });
  }
  const check = (columns: readonly string[], path: (string | number)[]) =>
    columns.forEach((c, i) => {
      if (!names.has(c)) {
        ctx.addIssue({ code: 'custom', message: `no column named ${JSON.stringify(c)}`, path: [...path, i] });
      }
    });
  if (v.primary_key) check(v.primary_key.columns, ['primary_key', 'columns']);
  v.unique_constraints?.forEach((u, i) => check(u.columns, ['unique_constraints', i, 'columns']));
  v.foreign_keys?.forEach((f, i) => check(f.columns, ['foreign_keys', i, 'columns']));
}

/** `POST /datasets/{id}/schema-versions`: a whole version, in column order, published atomically. */
export const PublishSchemaVersionSchema = z
  .strictObject(publishVersionShape)
  .superRefine(checkPublishedVersion)
  .meta({ id: 'PublishSchemaVersion' });
export type PublishSchemaVersion = z.input<typeof PublishSchemaVersionSchema>;

export const SchemaVersionColumnSchema = z
  .object({
    field_id: z.uuid(),
    name: z.string(),
    position: z.int(),
    nullable: z.boolean(),
    type_instance_id: z.uuid().nullable().describe('Null for a column whose native type has no data type'),
    rendered_type: z.string().nullable(),
    type: TypeInstanceTreeSchema.nullable(),
    pii_tags: z.array(z.string()).nullable().describe('Current PII tags; null when never classified'),
    ...columnAttributesReadShape,
  })
  .meta({ id: 'SchemaVersionColumn' });
export type SchemaVersionColumn = z.infer<typeof SchemaVersionColumnSchema>;

/**
 * Why a stored version cannot be read whole: rows written by an older release (a bound type tree
 * without the child its template reads, a tree past the limits) or a data type edited since. The read
 * goes on: the version is answered with its columns, each `rendered_type` null and a `type` null where
 * the tree is past the limits.
 */
const versionReadError = (which: string) =>
  ItemErrorSchema.optional().describe(
    `Present only when ${which} cannot be read whole (TYPE_INSTANCE_RENDER_FAILED, ` +
      'TEMPLATE_RENDER_LIMIT or TYPE_INSTANCE_TREE_TOO_LARGE; details name its dataset_schema_id and ' +
      'version_num): its columns come without their rendered types (null), and without the type of a ' +
      'tree past the limits. A superuser may delete such a version while it is the latest ' +
      '(DELETE /dataset-schemas/{id}).',
  );

export const SchemaVersionSchema = z
  .object({
    dataset_schema_id: z.uuid(),
    dataset_id: z.uuid(),
    version_num: z.int(),
    created_at: z.iso.datetime({ offset: true }),
    columns: z.array(SchemaVersionColumnSchema),
    ...tableStructureReadShape,
    read_error: versionReadError('the stored version'),
    compatibility_override: CompatibilityOverrideSchema.optional().describe(
      "Present only on a version a superuser published over its dataset's compatibility level (ADR " +
        '0048): the reason given and the violations it overrode',
    ),
  })
  .meta({ id: 'SchemaVersion' });
export type SchemaVersion = z.infer<typeof SchemaVersionSchema>;

export const PublishResultSchema = z
  .object({
    created: z.boolean().describe('false when the publish matched the current version: nothing was written'),
    version: SchemaVersionSchema,
    base_version_num: z
      .int()
      .nullable()
      .describe('The version the change was classified against: the current one at publish (null: none)'),
    ...versionChangeShape,
    impact: SchemaVersionImpactSchema.nullable()
      .optional()
      .describe(
        'Present on a forced publish that overrode its compatibility level (ADR 0048): the downstream ' +
          'links, field links and dataflows the change touches, as the check route answers them',
      ),
  })
  .meta({ id: 'PublishResult' });
export type PublishResult = z.infer<typeof PublishResultSchema>;

export const SchemaVersionSummarySchema = z
  .object({
    dataset_schema_id: z.uuid(),
    version_num: z.int(),
    created_at: z.iso.datetime({ offset: true }),
    created_by: z.uuid().nullable(),
    column_count: z.int(),
    compatibility_override: CompatibilityOverrideSchema.nullable().describe(
      "A forced publish over the dataset's compatibility level (ADR 0048): its reason and the " +
        'violations it overrode; null for a version published within its level',
    ),
  })
  .meta({ id: 'SchemaVersionSummary' });
export type SchemaVersionSummary = z.infer<typeof SchemaVersionSummarySchema>;

const diffColumn = z.object({
  name: z.string(),
  position: z.int(),
  nullable: z.boolean(),
  rendered_type: z.string().nullable(),
  native_type: z.string().nullable(),
});

const attributeChange = z.object({
  name: z.string(),
  from: z.string().nullable(),
  to: z.string().nullable(),
});
const attributeChanges = z.array(attributeChange);

function valueChange<T extends z.ZodType>(value: T) {
  return z.object({ from: value, to: value }).nullable().describe('null when unchanged');
}

function listChanges<T extends z.ZodType>(item: T) {
  return z
    .object({
      added: z.array(item),
      removed: z.array(item),
      changed: z.array(z.object({ from: item, to: item })),
    })
    .describe('Matched by name (unnamed ones by their whole definition)');
}

const read = tableStructureReadShape;

export const SchemaVersionDiffSchema = z
  .object({
    dataset_id: z.uuid(),
    from_version: z.int(),
    to_version: z.int(),
    added: z.array(diffColumn),
    removed: z.array(diffColumn),
    type_changed: z.array(
      z.object({ name: z.string(), from_type: z.string().nullable(), to_type: z.string().nullable() }),
    ),
    nullability_changed: z.array(
      z.object({ name: z.string(), from_nullable: z.boolean(), to_nullable: z.boolean() }),
    ),
    reordered: z.array(z.object({ name: z.string(), from_position: z.int(), to_position: z.int() })),
    native_type_changed: attributeChanges,
    default_changed: attributeChanges,
    comment_changed: attributeChanges,
    identity_changed: attributeChanges,
    generated_changed: attributeChanges,
    collation_changed: attributeChanges,
    table_kind_changed: valueChange(read.table_kind),
    table_comment_changed: valueChange(read.table_comment),
    view_definition_changed: valueChange(read.view_definition),
    primary_key_changed: valueChange(read.primary_key),
    unique_constraints_changed: listChanges(read.unique_constraints.element),
    foreign_keys_changed: listChanges(read.foreign_keys.element),
    indexes_changed: listChanges(read.indexes.element),
    check_constraints_changed: listChanges(read.check_constraints.element),
    identical: z.boolean().describe('true when no category has a change'),
    from_read_error: versionReadError('the stored version'),
    to_read_error: versionReadError('the stored version'),
    ...versionChangeShape,
  })
  .meta({ id: 'SchemaVersionDiff' });
export type SchemaVersionDiff = z.infer<typeof SchemaVersionDiffSchema>;

export const SchemaVersionDiffQuerySchema = z.strictObject({
  from: wireInt(0, 2147483647).describe('Version number'),
  to: wireInt(0, 2147483647).describe('Version number'),
});

export type { TypeInstanceTree };
