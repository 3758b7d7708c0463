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

/** The child slots a template may read by name (struct members are read as `fields`). */
export const CHILD_SLOT_NAMES = ['item', 'element', 'key', 'value'] as const;
export type ChildSlotName = (typeof CHILD_SLOT_NAMES)[number];
// The code of `{{ ... }}` and `{% ... %}` tags: slot names in literal text ("primary key") do not count.
const TEMPLATE_TAG = /\{[{%]([\s\S]*?)[}%]\}/g;

/**
 * The child slots a render template reads (`item`, `element`, `key`, `value`, in that order) and whether
 * it reads struct members (`fields`, children in slots `field:<name>`). The server requires a child for
 * each slot read and refuses one it ignores; the UI asks for exactly these.
 */
export function templateSlots(template: string): { slots: ChildSlotName[]; fields: boolean } {
  const found = new Set<ChildSlotName>();
  let fields = false;
  for (const match of template.matchAll(TEMPLATE_TAG)) {
    const code = match[1] ?? '';
    for (const name of CHILD_SLOT_NAMES) if (new RegExp(`\\b${name}\\b`).test(code)) found.add(name);
    if (/\bfields\b/.test(code)) fields = true;
  }
  return { slots: CHILD_SLOT_NAMES.filter((n) => found.has(n)), fields };
}

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
