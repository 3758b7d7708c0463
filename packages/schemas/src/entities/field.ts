import { z } from 'zod';
import { auditShape, noteShape, rowVersionShape } from '../common/audit.js';
import { jsonObject, longText } from '../common/text.js';
import { defineResource } from '../resource.js';

export const FIELD_ORIGINS = ['mapped', 'tech', 'deprecated'] as const;
export const FieldOriginSchema = z.enum(FIELD_ORIGINS);
export type FieldOrigin = z.infer<typeof FieldOriginSchema>;

/** A column's identity in a dataset (not versioned); nested fields point at their parent. */
export const FieldSchema = z
  .object({
    ...auditShape,
    dataset_id: z.uuid(),
    parent_id: z.uuid().nullable(),
    name: z.string(),
    path: z.string().nullable(),
    extra: z.record(z.string(), z.unknown()).nullable(),
    origin: FieldOriginSchema,
  })
  .meta({ id: 'Field' });
export type Field = z.infer<typeof FieldSchema>;

export const CreateFieldSchema = z
  .strictObject({
    dataset_id: z.uuid(),
    parent_id: z.uuid().nullable().optional(),
    name: longText(1000).min(1),
    path: longText(4000).nullable().optional(),
    extra: jsonObject.nullable().optional(),
    origin: FieldOriginSchema.optional(),
    ...noteShape,
  })
  .meta({ id: 'CreateField' });
export type CreateField = z.input<typeof CreateFieldSchema>;

export const UpdateFieldSchema = z
  .strictObject({
    parent_id: z.uuid().nullable().optional(),
    name: longText(1000).min(1).optional(),
    path: longText(4000).nullable().optional(),
    extra: jsonObject.nullable().optional(),
    origin: FieldOriginSchema.optional(),
    ...noteShape,
    ...rowVersionShape,
  })
  .meta({ id: 'UpdateField' });
export type UpdateField = z.input<typeof UpdateFieldSchema>;

export interface FieldTree extends Field {
  children: FieldTree[];
}

export const FieldTreeSchema: z.ZodType<FieldTree> = FieldSchema.extend({
  get children() {
    return z.array(FieldTreeSchema);
  },
}).meta({ id: 'FieldTree' });

export const fieldResource = defineResource({
  path: 'fields',
  tag: 'Fields',
  name: 'Field',
  read: FieldSchema,
  create: CreateFieldSchema,
  update: UpdateFieldSchema,
  list: {
    filters: {
      dataset_id: { type: 'uuid', ops: ['eq', 'in'] },
      parent_id: { type: 'uuid', ops: ['eq'] },
      name: { type: 'string', ops: ['eq', 'like', 'in'] },
      origin: { type: 'string', ops: ['eq', 'in'], values: FIELD_ORIGINS },
      created_at: { type: 'datetime', ops: ['gte', 'lte'] },
    },
    sortable: ['name', 'created_at', 'updated_at'],
    defaultSort: 'name',
    softDelete: false,
  },
  notFound: 'FIELD_NOT_FOUND',
  writeRole: 'user',
  keys: 'catalogue',
  softDelete: false,
  batch: true,
  errors: [
    'FIELD_ALREADY_EXISTS',
    'DATASET_NOT_FOUND',
    'FIELD_PARENT_NOT_FOUND',
    'FIELD_PARENT_DATASET_MISMATCH',
    'FIELD_CIRCULAR_REFERENCE',
    'FIELD_TREE_TOO_DEEP',
    'FIELD_ORIGIN_CONFLICT',
  ],
});
