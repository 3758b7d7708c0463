import { z } from 'zod';
import { auditShape, noteShape, rowVersionShape } from '../common/audit.js';
import { jsonObject } from '../common/text.js';
import { defineResource } from '../resource.js';

/**
 * A child's role under its parent: `item`/`element` (arrays, lists), `key`/`value` (maps),
 * `field:<name>` (struct members).
 */
export const SlotSchema = z.string().regex(/^(item|element|key|value|field:[^\u0000]{1,255})$/, {
  message: 'must be item, element, key, value or field:<name>',
});

export const TypeInstanceSchema = z
  .object({
    ...auditShape,
    data_type_id: z.uuid(),
    type_params: z.record(z.string(), z.unknown()).nullable(),
    parent_id: z.uuid().nullable(),
    slot: z.string().nullable(),
  })
  .meta({ id: 'TypeInstance' });
export type TypeInstance = z.infer<typeof TypeInstanceSchema>;

export const CreateTypeInstanceSchema = z
  .strictObject({
    data_type_id: z.uuid(),
    type_params: jsonObject.nullable().optional(),
    parent_id: z.uuid().nullable().optional(),
    slot: SlotSchema.nullable().optional(),
    ...noteShape,
  })
  .meta({ id: 'CreateTypeInstance' });
export type CreateTypeInstance = z.input<typeof CreateTypeInstanceSchema>;

/** `parent_id` and `slot` are fixed at creation. */
export const UpdateTypeInstanceSchema = z
  .strictObject({
    data_type_id: z.uuid().optional(),
    type_params: jsonObject.nullable().optional(),
    ...noteShape,
    ...rowVersionShape,
  })
  .meta({ id: 'UpdateTypeInstance' });
export type UpdateTypeInstance = z.input<typeof UpdateTypeInstanceSchema>;

export interface TypeInstanceTree {
  id: string;
  data_type_id: string;
  data_type_code: string;
  type_params: Record<string, unknown> | null;
  slot: string | null;
  children: TypeInstanceTree[];
}

export const TypeInstanceTreeSchema: z.ZodType<TypeInstanceTree> = z
  .object({
    id: z.uuid(),
    data_type_id: z.uuid(),
    data_type_code: z.string(),
    type_params: z.record(z.string(), z.unknown()).nullable(),
    slot: z.string().nullable(),
    get children() {
      return z.array(TypeInstanceTreeSchema);
    },
  })
  .meta({ id: 'TypeInstanceTree' });

export const RenderedTypeSchema = z
  .object({ type_instance_id: z.uuid(), rendered: z.string() })
  .meta({ id: 'RenderedType' });
export type RenderedType = z.infer<typeof RenderedTypeSchema>;

export const typeInstanceResource = defineResource({
  path: 'type-instances',
  tag: 'Type instances',
  name: 'TypeInstance',
  read: TypeInstanceSchema,
  create: CreateTypeInstanceSchema,
  update: UpdateTypeInstanceSchema,
  list: {
    filters: {
      data_type_id: { type: 'uuid', ops: ['eq', 'in'] },
      parent_id: { type: 'uuid', ops: ['eq'] },
      slot: { type: 'string', ops: ['eq'] },
      created_at: { type: 'datetime', ops: ['gte', 'lte'] },
    },
    sortable: ['slot', 'created_at', 'updated_at'],
    defaultSort: 'created_at',
    softDelete: false,
  },
  notFound: 'TYPE_INSTANCE_NOT_FOUND',
  writeRole: 'user',
  keys: 'catalogue',
  softDelete: false,
  batch: true,
  errors: [
    'DATA_TYPE_NOT_FOUND',
    'TYPE_INSTANCE_PARENT_NOT_FOUND',
    'TYPE_INSTANCE_SLOT_REQUIRED',
    'TYPE_INSTANCE_SLOT_FORBIDDEN',
    'TYPE_INSTANCE_SLOT_ALREADY_EXISTS',
    'TYPE_INSTANCE_PARAMS_INVALID',
    'TYPE_INSTANCE_TREE_TOO_LARGE',
    'TYPE_INSTANCE_FLAVOR_MISMATCH',
  ],
});
