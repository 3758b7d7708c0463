// `SchemaHint` (reference §1.8): a column-level type hint for a source table.
import {
  asInputObject,
  displayValue,
  convertToBool,
  optionalString,
  parseOptionalInteger,
  requireField,
} from '../coerce.js';
import { ConfigurationError } from '../errors.js';

export interface SchemaHint {
  column_name: string;
  /** Free text in the source connection's type system, e.g. `decimal(18,2)`, `timestamptz`. */
  data_type: string;
  /** Parse pattern for string → date/timestamp, e.g. `yyyy-MM-dd`. */
  format: string | null;
  precision: number | null;
  scale: number | null;
  default_value: string | null;
  ordinal_position: number | null;
  is_active: boolean;
}

export type SchemaHintInput = Partial<Record<keyof SchemaHint, unknown>> & Record<string, unknown>;

function nonEmptyString(input: Record<string, unknown>, field: 'column_name' | 'data_type'): string {
  const value = requireField(input, field);
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ConfigurationError(`${field} must be a non-empty string`, { field });
  }
  return value;
}

export function createSchemaHint(value: unknown): SchemaHint {
  const input = asInputObject(value, 'SchemaHint');
  return {
    column_name: nonEmptyString(input, 'column_name'),
    data_type: nonEmptyString(input, 'data_type'),
    format: optionalString(input['format'], 'format'),
    precision: parseOptionalInteger(input['precision'], 'precision'),
    scale: parseOptionalInteger(input['scale'], 'scale'),
    default_value:
      input['default_value'] === null || input['default_value'] === undefined
        ? null
        : displayValue(input['default_value']),
    ordinal_position:
      'ordinal_position' in input ? parseOptionalInteger(input['ordinal_position'], 'ordinal_position') : 0,
    is_active: 'is_active' in input ? convertToBool(input['is_active'], 'is_active must be a boolean') : true,
  };
}
