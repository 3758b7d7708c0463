import { AppError } from '../../common/errors/app-error.js';
import {
  normalizeParamsSchema,
  paramNamesOf,
  ParamsSchemaError,
  type ParamsJsonSchema,
} from '../type-system/params-schema.js';
import { convertOriginalTemplate } from '../type-system/original-template.js';
import { TEMPLATE_CONTEXT_VARIABLES, validateTemplate } from '../type-system/template-validator.js';
import { TemplateError } from '../type-system/template-error.js';

/**
 * Checks what a data type declares, as written by a client or a seed file: the params schema must be an
 * accepted JSON Schema (or the original rule map, converted) and the template must pass the sandbox
 * policy reading only declared params and child slots (original `{param}` templates are converted).
 */
export function checkDataTypeDefinition(
  paramsSchema: unknown,
  template: string | null | undefined,
): { params_schema: ParamsJsonSchema; render_template: string | null | undefined } {
  let schema: ParamsJsonSchema;
  try {
    schema = normalizeParamsSchema(paramsSchema).schema;
    // A type's params are closed: an unknown key in type_params is an error, not silently stored.
    if (schema.additionalProperties === undefined) schema = { ...schema, additionalProperties: false };
  } catch (error) {
    if (error instanceof ParamsSchemaError) {
      throw new AppError('DATA_TYPE_PARAMS_SCHEMA_INVALID', undefined, { issues: error.issues });
    }
    throw error;
  }
  if (template === null || template === undefined)
    return { params_schema: schema, render_template: template };
  const converted = convertOriginalTemplate(template);
  try {
    validateTemplate(converted, { knownVariables: [...paramNamesOf(schema), ...TEMPLATE_CONTEXT_VARIABLES] });
  } catch (error) {
    if (error instanceof TemplateError) {
      throw new AppError(
        'DATA_TYPE_TEMPLATE_INVALID',
        `The render_template is not allowed: ${error.message}`,
      );
    }
    throw error;
  }
  return { params_schema: schema, render_template: converted };
}
