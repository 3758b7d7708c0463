/** A JSON scalar usable in an `enum` of a parameter. */
export type ParamScalar = string | number | boolean;

/** The JSON Schema of one type parameter: a simple typed value. */
export interface ParamPropertySchema {
  type?: 'integer' | 'number' | 'string' | 'boolean';
  enum?: ParamScalar[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  default?: unknown;
  description?: string;
  title?: string;
}

/** The accepted shape of a data type's `params_schema` (a restricted JSON Schema 2020-12). */
export interface ParamsJsonSchema {
  $schema?: string;
  type: 'object';
  properties?: Record<string, ParamPropertySchema>;
  required?: string[];
  additionalProperties?: false;
  description?: string;
  title?: string;
}

/** The JSON Schema dialect `params_schema` is validated against. */
export const JSON_SCHEMA_2020_12 = 'https://json-schema.org/draft/2020-12/schema';
