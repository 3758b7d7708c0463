import { z } from 'zod';
import { auditShape, noteShape, rowVersionShape } from '../common/audit.js';
import { jsonObject, text } from '../common/text.js';
import { defineResource } from '../resource.js';

export const CAST_SAFETIES = ['implicit', 'safe', 'unsafe'] as const;
/** implicit: lossless, no action; safe: an explicit but safe cast; unsafe: may lose data or fail. */
export const CastSafetySchema = z.enum(CAST_SAFETIES);
export type CastSafety = z.infer<typeof CastSafetySchema>;

export const CAST_FIDELITIES = ['exact', 'widening', 'lossy'] as const;
/**
 * What happens to the values (ADR 0043): exact (same values), widening (every value kept, the target
 * holds more), lossy (some values lose what `loss` says). Orthogonal to safety, which says what the
 * cast needs (implicit, explicit, may fail).
 */
export const CastFidelitySchema = z.enum(CAST_FIDELITIES);
export type CastFidelity = z.infer<typeof CastFidelitySchema>;
const loss = z
  .array(text(200))
  .max(20)
  .describe('What a lossy cast loses, e.g. ["range"], ["time zone offset"]');

/** Target params from source params: `"@precision"` copies a source parameter, anything else is a literal. */
const paramMapping = jsonObject.describe('e.g. {"precision": "@precision", "scale": "@scale"}');

export const CastRuleSchema = z
  .object({
    ...auditShape,
    source_data_type_id: z.uuid(),
    target_data_type_id: z.uuid(),
    param_mapping: z.record(z.string(), z.unknown()),
    safety: CastSafetySchema,
    fidelity: CastFidelitySchema.nullable(),
    loss: z.array(z.string()),
  })
  .meta({ id: 'CastRule' });
export type CastRule = z.infer<typeof CastRuleSchema>;

export const CreateCastRuleSchema = z
  .strictObject({
    source_data_type_id: z.uuid(),
    target_data_type_id: z.uuid(),
    param_mapping: paramMapping.default({}),
    safety: CastSafetySchema,
    fidelity: CastFidelitySchema.nullable().optional(),
    loss: loss.optional(),
    ...noteShape,
  })
  .meta({ id: 'CreateCastRule' });
export type CreateCastRule = z.input<typeof CreateCastRuleSchema>;

export const UpdateCastRuleSchema = z
  .strictObject({
    source_data_type_id: z.uuid().optional(),
    target_data_type_id: z.uuid().optional(),
    param_mapping: paramMapping.optional(),
    safety: CastSafetySchema.optional(),
    fidelity: CastFidelitySchema.nullable().optional(),
    loss: loss.optional(),
    ...noteShape,
    ...rowVersionShape,
  })
  .meta({ id: 'UpdateCastRule' });
export type UpdateCastRule = z.input<typeof UpdateCastRuleSchema>;

/** What a type becomes in another flavor: from a type instance, or from a data type and params. */
export const ResolveCastRequestSchema = z
  .strictObject({
    type_instance_id: z.uuid().optional(),
    data_type_id: z.uuid().optional(),
    type_params: jsonObject.nullable().optional(),
    target_flavor: text().describe('Target flavor code, e.g. iceberg_v2'),
  })
  .refine((v) => (v.type_instance_id === undefined) !== (v.data_type_id === undefined), {
    message: 'give exactly one of type_instance_id and data_type_id',
    path: ['type_instance_id'],
  })
  .meta({ id: 'ResolveCastRequest' });
export type ResolveCastRequest = z.input<typeof ResolveCastRequestSchema>;

export const ResolveCastResultSchema = z
  .object({
    cast_rule_id: z.uuid(),
    source_data_type_id: z.uuid(),
    source_code: z.string(),
    target_data_type_id: z.uuid(),
    target_code: z.string(),
    target_flavor: z.string(),
    type_params: z.record(z.string(), z.unknown()),
    rendered: z.string(),
    safety: CastSafetySchema,
    /** The weakest fidelity along the type tree; null when a rule on the way is unclassified. */
    fidelity: CastFidelitySchema.nullable(),
    /** What the lossy rules along the tree lose, each once. */
    loss: z.array(z.string()),
  })
  .meta({ id: 'ResolveCastResult' });
export type ResolveCastResult = z.infer<typeof ResolveCastResultSchema>;

export const castRuleResource = defineResource({
  path: 'cast-rules',
  tag: 'Cast rules',
  name: 'CastRule',
  read: CastRuleSchema,
  create: CreateCastRuleSchema,
  update: UpdateCastRuleSchema,
  list: {
    filters: {
      source_data_type_id: { type: 'uuid', ops: ['eq', 'in'] },
      target_data_type_id: { type: 'uuid', ops: ['eq', 'in'] },
      safety: { type: 'string', ops: ['eq', 'in'], values: CAST_SAFETIES },
      fidelity: { type: 'string', ops: ['eq', 'in'], values: CAST_FIDELITIES },
      created_at: { type: 'datetime', ops: ['gte', 'lte'] },
    },
    sortable: ['safety', 'created_at', 'updated_at'],
    defaultSort: 'created_at',
    softDelete: false,
  },
  notFound: 'CAST_RULE_NOT_FOUND',
  writeRole: 'superuser',
  keys: 'reference',
  softDelete: false,
  batch: true,
  errors: ['CAST_RULE_ALREADY_EXISTS', 'DATA_TYPE_NOT_FOUND'],
});
