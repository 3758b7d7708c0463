import type { DataType, PublishColumn } from '@aide/schemas';
import type { SchemaHint } from '@aide/schemas/datacoolie';

/**
 * The params a data type declares: the keys of its JSON Schema's `properties`, or of the original rule
 * format (`{length: {type: int, …}}`).
 */
function paramNames(type: Pick<DataType, 'params_schema'>): Set<string> {
  const schema = type.params_schema;
  const properties = schema['properties'];
  return new Set(Object.keys(properties !== null && typeof properties === 'object' ? properties : schema));
}

/**
 * A hint as a published column: its data type must be a data type code of the flavor. The hint's one
 * number — `precision`, or the `(n)` of `varchar(n)` — is the type's `length` when the type has a
 * length and no precision (`varchar(20)`, `char(3)`); else precision and scale (`decimal(18,2)`).
 */
export function hintColumn(hint: SchemaHint, types: readonly DataType[]): PublishColumn | string {
  const match = /^\s*([^(]+?)\s*(?:\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\))?\s*$/.exec(hint.data_type);
  const code = match?.[1]?.toLowerCase();
  const type = types.find((t) => t.code.toLowerCase() === code);
  if (!type) return `data type '${hint.data_type}' is not a data type of the system's flavor`;
  const precision = hint.precision ?? (match?.[2] === undefined ? null : Number(match[2]));
  const scale = hint.scale ?? (match?.[3] === undefined ? null : Number(match[3]));
  const names = paramNames(type);
  const params: Record<string, number> = {};
  if (names.has('length') && !names.has('precision')) {
    if (scale !== null) return `data type '${hint.data_type}' takes a length, not a scale`;
    if (precision !== null) params['length'] = precision;
  } else {
    if (precision !== null) params['precision'] = precision;
    if (scale !== null) params['scale'] = scale;
  }
  return {
    name: hint.column_name,
    type: { data_type: type.code, ...(Object.keys(params).length > 0 ? { params } : {}) },
  };
}
