import { z } from 'zod';
import { auditShape, noteShape, rowVersionShape, softDeleteShape } from '../common/audit.js';
import { jsonObject, longText, text } from '../common/text.js';
import { defineResource } from '../resource.js';

/**
 * A type of a flavor's catalogue (`varchar`, `numeric`, `array`). `params_schema` is a JSON Schema of
 * the type's parameters; `render_template` renders a type instance in Jinja2 syntax.
 */
export const DataTypeSchema = z
  .object({
    ...auditShape,
    ...softDeleteShape,
    system_flavor_id: z.uuid(),
    code: z.string(),
    params_schema: z.record(z.string(), z.unknown()),
    render_template: z.string().nullable(),
    description: z.string().nullable(),
  })
  .meta({ id: 'DataType' });
export type DataType = z.infer<typeof DataTypeSchema>;

const template = longText(2000).nullable();

export const CreateDataTypeSchema = z
  .strictObject({
    system_flavor_id: z.uuid(),
    code: text(),
    params_schema: jsonObject.describe(
      'JSON Schema (2020-12) of the parameters, or the original rule format',
    ),
    render_template: template.optional(),
    description: longText(2000).nullable().optional(),
    ...noteShape,
  })
  .meta({ id: 'CreateDataType' });
export type CreateDataType = z.input<typeof CreateDataTypeSchema>;

export const UpdateDataTypeSchema = z
  .strictObject({
    system_flavor_id: z.uuid().optional(),
    code: text().optional(),
    params_schema: jsonObject.optional(),
    render_template: template.optional(),
    description: longText(2000).nullable().optional(),
    ...noteShape,
    ...rowVersionShape,
  })
  .meta({ id: 'UpdateDataType' });
export type UpdateDataType = z.input<typeof UpdateDataTypeSchema>;

export const dataTypeResource = defineResource({
  path: 'data-types',
  tag: 'Data types',
  name: 'DataType',
  read: DataTypeSchema,
  create: CreateDataTypeSchema,
  update: UpdateDataTypeSchema,
  list: {
    filters: {
      code: { type: 'string', ops: ['eq', 'like', 'in'] },
      system_flavor_id: { type: 'uuid', ops: ['eq', 'in'] },
      created_at: { type: 'datetime', ops: ['gte', 'lte'] },
    },
    sortable: ['code', 'created_at', 'updated_at'],
    defaultSort: 'code',
    softDelete: true,
  },
  notFound: 'DATA_TYPE_NOT_FOUND',
  writeRole: 'superuser',
  keys: 'reference',
  softDelete: true,
  batch: true,
  errors: [
    'DATA_TYPE_ALREADY_EXISTS',
    'SYSTEM_FLAVOR_NOT_FOUND',
    'DATA_TYPE_PARAMS_SCHEMA_INVALID',
    'DATA_TYPE_TEMPLATE_INVALID',
    'TYPE_INSTANCE_FLAVOR_MISMATCH',
  ],
});
