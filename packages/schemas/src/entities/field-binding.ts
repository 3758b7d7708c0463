import { z } from 'zod';
import { auditShape, noteShape, rowVersionShape } from '../common/audit.js';
import { defineResource } from '../resource.js';

/** "Field F is in schema version V at position P, nullable N, with type tree T." */
export const FieldBindingSchema = z
  .object({
    ...auditShape,
    field_id: z.uuid(),
    dataset_schema_id: z.uuid(),
    position: z.int(),
    is_nullable: z.boolean(),
    type_instance_id: z.uuid().nullable().describe('Null for a column whose native type has no data type'),
  })
  .meta({ id: 'FieldBinding' });
export type FieldBinding = z.infer<typeof FieldBindingSchema>;

const position = z.int().min(0).max(100_000);

export const CreateFieldBindingSchema = z
  .strictObject({
    field_id: z.uuid(),
    dataset_schema_id: z.uuid(),
    position,
    is_nullable: z.boolean().optional(),
    type_instance_id: z.uuid(),
    ...noteShape,
  })
  .meta({ id: 'CreateFieldBinding' });
export type CreateFieldBinding = z.input<typeof CreateFieldBindingSchema>;

export const UpdateFieldBindingSchema = z
  .strictObject({
    position: position.optional(),
    is_nullable: z.boolean().optional(),
    type_instance_id: z.uuid().optional(),
    ...noteShape,
    ...rowVersionShape,
  })
  .meta({ id: 'UpdateFieldBinding' });
export type UpdateFieldBinding = z.input<typeof UpdateFieldBindingSchema>;

export const fieldBindingResource = defineResource({
  path: 'field-bindings',
  tag: 'Field bindings',
  name: 'FieldBinding',
  read: FieldBindingSchema,
  create: CreateFieldBindingSchema,
  update: UpdateFieldBindingSchema,
  list: {
    filters: {
      field_id: { type: 'uuid', ops: ['eq', 'in'] },
      dataset_schema_id: { type: 'uuid', ops: ['eq', 'in'] },
      type_instance_id: { type: 'uuid', ops: ['eq'] },
      created_at: { type: 'datetime', ops: ['gte', 'lte'] },
    },
    sortable: ['position', 'created_at', 'updated_at'],
    defaultSort: 'position',
    softDelete: false,
  },
  notFound: 'FIELD_BINDING_NOT_FOUND',
  writeRole: 'user',
  keys: 'catalogue',
  softDelete: false,
  batch: true,
  errors: [
    'FIELD_BINDING_FIELD_ID_ALREADY_EXISTS',
    'FIELD_BINDING_POSITION_ALREADY_EXISTS',
    'FIELD_NOT_FOUND',
    'DATASET_SCHEMA_NOT_FOUND',
    'TYPE_INSTANCE_NOT_FOUND',
    'DATASET_SCHEMA_IMMUTABLE',
    'TYPE_INSTANCE_TREE_TOO_LARGE',
    'TYPE_INSTANCE_FLAVOR_MISMATCH',
    'TYPE_INSTANCE_RENDER_FAILED',
    'TEMPLATE_RENDER_LIMIT',
  ],
});
