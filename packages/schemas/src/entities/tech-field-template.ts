import { z } from 'zod';
import { auditShape, noteShape, rowVersionShape } from '../common/audit.js';
import { int32, jsonObject, longText, text } from '../common/text.js';
import { defineResource } from '../resource.js';
import { DATASET_LAYERS, DatasetLayerSchema } from './dataset.js';
import { FieldSchema } from './field.js';

/**
 * One technical column of a template (AIDE v2 §1.2 tech_field_template_fields): its name, its place,
 * the data type code resolved against the dataset's flavor on apply, optional type parameters,
 * nullability, default and comment.
 */
export const TechFieldTemplateFieldSchema = z
  .strictObject({
    name: text(255),
    position: int32.min(0),
    type_code: text(64).describe("A data type code of the dataset's flavor, e.g. `timestamp`"),
    type_params: jsonObject.nullable().default(null),
    nullable: z.boolean().default(true),
    default_value: longText(4000).nullable().default(null).describe('A default expression, as text'),
    comment: longText(4000).nullable().default(null),
  })
  .meta({ id: 'TechFieldTemplateField' });
export type TechFieldTemplateField = z.infer<typeof TechFieldTemplateFieldSchema>;
export type TechFieldTemplateFieldInput = z.input<typeof TechFieldTemplateFieldSchema>;

const templateFields = z.array(TechFieldTemplateFieldSchema).max(200);

/** A reusable preset of technical columns for datasets of one layer (AIDE v2 ADR-017). Hard delete. */
export const TechFieldTemplateSchema = z
  .object({
    ...auditShape,
    code: z.string(),
    name: z.string(),
    layer: DatasetLayerSchema,
    fields: z.array(TechFieldTemplateFieldSchema).describe('Ordered by position'),
  })
  .meta({ id: 'TechFieldTemplate' });
export type TechFieldTemplate = z.infer<typeof TechFieldTemplateSchema>;

export const CreateTechFieldTemplateSchema = z
  .strictObject({
    code: text(100),
    name: text(255),
    layer: DatasetLayerSchema,
    fields: templateFields.default([]),
    ...noteShape,
  })
  .meta({ id: 'CreateTechFieldTemplate' });
export type CreateTechFieldTemplate = z.input<typeof CreateTechFieldTemplateSchema>;

export const UpdateTechFieldTemplateSchema = z
  .strictObject({
    code: text(100).optional(),
    name: text(255).optional(),
    layer: DatasetLayerSchema.optional(),
    fields: templateFields.optional().describe('Replaces the whole set of fields'),
    ...noteShape,
    ...rowVersionShape,
  })
  .meta({ id: 'UpdateTechFieldTemplate' });
export type UpdateTechFieldTemplate = z.input<typeof UpdateTechFieldTemplateSchema>;

/** `POST /datasets/{id}/apply-tech-template` (AIDE v2 §9.3). */
export const ApplyTechTemplateSchema = z
  .strictObject({
    template_id: z.uuid(),
    type_overrides: z
      .record(text(255), text(64))
      .default({})
      .describe('Template field name → type code used instead of the template one'),
  })
  .meta({ id: 'ApplyTechTemplate' });
export type ApplyTechTemplate = z.input<typeof ApplyTechTemplateSchema>;

export const ApplyTechTemplateResultSchema = z
  .object({
    created: z.array(FieldSchema).describe('The fields created by this call, with origin `tech`'),
    skipped: z.array(z.string()).describe('Template field names that already exist as root fields'),
  })
  .meta({ id: 'ApplyTechTemplateResult' });
export type ApplyTechTemplateResult = z.infer<typeof ApplyTechTemplateResultSchema>;

export const techFieldTemplateResource = defineResource({
  path: 'tech-field-templates',
  tag: 'Tech-field templates',
  name: 'TechFieldTemplate',
  read: TechFieldTemplateSchema,
  create: CreateTechFieldTemplateSchema,
  update: UpdateTechFieldTemplateSchema,
  list: {
    filters: {
      code: { type: 'string', ops: ['eq', 'like', 'in'] },
      layer: { type: 'string', ops: ['eq', 'in'], values: DATASET_LAYERS },
      created_at: { type: 'datetime', ops: ['gte', 'lte'] },
    },
    sortable: ['code', 'name', 'layer', 'created_at', 'updated_at'],
    defaultSort: 'code',
    softDelete: false,
  },
  notFound: 'TECH_FIELD_TEMPLATE_NOT_FOUND',
  writeRole: 'superuser',
  keys: 'reference',
  softDelete: false,
  batch: false,
  errors: ['TECH_FIELD_TEMPLATE_ALREADY_EXISTS', 'TECH_FIELD_TEMPLATE_FIELD_ALREADY_EXISTS'],
});
