import { z } from 'zod';
import { noteShape } from '../common/audit.js';
import { jsonObject, longText, positiveInt32, text } from '../common/text.js';
import { FieldOriginSchema } from './field.js';
import { SlotSchema, type TypeInstanceTree, TypeInstanceTreeSchema } from './type-instance.js';

/** A type tree to publish: a data type code of the dataset's flavor, its params, and child types by slot. */
export interface TypeSpec {
  data_type: string;
  params?: Record<string, unknown> | null | undefined;
  children?: { slot: string; type: TypeSpec }[] | undefined;
}

export const TypeSpecSchema: z.ZodType<TypeSpec, TypeSpec> = z
  .strictObject({
    data_type: text().describe("A data type code of the dataset system's flavor"),
    params: jsonObject.nullable().optional(),
    get children() {
      return z
        .array(z.strictObject({ slot: SlotSchema, type: TypeSpecSchema }))
        .max(1000)
        .optional();
    },
  })
  .meta({ id: 'TypeSpec' });

export const PublishColumnSchema = z
  .strictObject({
    name: longText(1000).min(1),
    nullable: z.boolean().default(true),
    type: TypeSpecSchema,
    path: longText(4000).nullable().optional(),
    origin: FieldOriginSchema.optional(),
  })
  .meta({ id: 'PublishColumn' });
export type PublishColumn = z.input<typeof PublishColumnSchema>;

/** `POST /datasets/{id}/schema-versions`: a whole version, in column order, published atomically. */
export const PublishSchemaVersionSchema = z
  .strictObject({
    version_num: positiveInt32
      .optional()
      .describe('Assigned by the server when omitted; when given, it must be the next number (highest + 1)'),
    columns: z.array(PublishColumnSchema).min(1).max(5000),
    schema: jsonObject.nullable().optional(),
    extra: jsonObject.nullable().optional(),
    ...noteShape,
  })
  .refine((v) => new Set(v.columns.map((c) => c.name)).size === v.columns.length, {
    message: 'column names must be unique',
    path: ['columns'],
  })
  .meta({ id: 'PublishSchemaVersion' });
export type PublishSchemaVersion = z.input<typeof PublishSchemaVersionSchema>;

export const SchemaVersionColumnSchema = z
  .object({
    field_id: z.uuid(),
    name: z.string(),
    position: z.int(),
    nullable: z.boolean(),
    type_instance_id: z.uuid(),
    rendered_type: z.string(),
    type: TypeInstanceTreeSchema,
    pii_tags: z.array(z.string()).nullable().describe('Current PII tags; null when never classified'),
  })
  .meta({ id: 'SchemaVersionColumn' });
export type SchemaVersionColumn = z.infer<typeof SchemaVersionColumnSchema>;

export const SchemaVersionSchema = z
  .object({
    dataset_schema_id: z.uuid(),
    dataset_id: z.uuid(),
    version_num: z.int(),
    created_at: z.iso.datetime({ offset: true }),
    columns: z.array(SchemaVersionColumnSchema),
  })
  .meta({ id: 'SchemaVersion' });
export type SchemaVersion = z.infer<typeof SchemaVersionSchema>;

export const PublishResultSchema = z
  .object({
    created: z.boolean().describe('false when the publish matched the current version: nothing was written'),
    version: SchemaVersionSchema,
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
  })
  .meta({ id: 'SchemaVersionSummary' });
export type SchemaVersionSummary = z.infer<typeof SchemaVersionSummarySchema>;

const diffColumn = z.object({
  name: z.string(),
  position: z.int(),
  nullable: z.boolean(),
  rendered_type: z.string(),
});

export const SchemaVersionDiffSchema = z
  .object({
    dataset_id: z.uuid(),
    from_version: z.int(),
    to_version: z.int(),
    added: z.array(diffColumn),
    removed: z.array(diffColumn),
    type_changed: z.array(z.object({ name: z.string(), from_type: z.string(), to_type: z.string() })),
    nullability_changed: z.array(
      z.object({ name: z.string(), from_nullable: z.boolean(), to_nullable: z.boolean() }),
    ),
    reordered: z.array(z.object({ name: z.string(), from_position: z.int(), to_position: z.int() })),
  })
  .meta({ id: 'SchemaVersionDiff' });
export type SchemaVersionDiff = z.infer<typeof SchemaVersionDiffSchema>;

export const SchemaVersionDiffQuerySchema = z.strictObject({
  from: z
    .string()
    .regex(/^\d{1,10}$/)
    .transform(Number),
  to: z
    .string()
    .regex(/^\d{1,10}$/)
    .transform(Number),
});

export type { TypeInstanceTree };
