// A declared hint's type mapped to the registry data type it names (ADR 0050): in the flavor seeded for
// the source connection's type system, code case-insensitive, `name(p[,s])` parsed. The hint keeps its
// own spelling; the mapping is for validation and cast rules only.
import {
  type SchemaHint,
  TYPE_SYSTEM_ALIASES,
  TYPE_SYSTEM_FLAVORS,
  TYPE_SYSTEMS,
  type TypeSystem,
} from '@aide/schemas/datacoolie';
import type { ImportDataType } from './datacoolie-import.repository.js';

/**
 * The type system a connection's hints are written in: `schema_hint_type_system`, else
 * `database_type`, else spark_sql (DataCoolie's order); null for a name DataCoolie does not know.
 */
export function hintTypeSystemOf(configure: Record<string, unknown>): TypeSystem | null {
  for (const key of ['schema_hint_type_system', 'database_type']) {
    const value = configure[key];
    if (typeof value !== 'string' || value.trim() === '') continue;
    const name = value.trim().toLowerCase();
    const system = TYPE_SYSTEM_ALIASES[name] ?? name;
    return (TYPE_SYSTEMS as readonly string[]).includes(system) ? system : null;
  }
  return 'spark_sql';
}

/** The seeded flavor whose types check hints of this type system; null: hints stay unchecked. */
export function hintFlavorOf(system: TypeSystem | null): string | null {
  return system === null ? null : TYPE_SYSTEM_FLAVORS[system];
}

/**
 * The params a data type declares: the keys of its JSON Schema's `properties`, or of the original rule
 * format (`{length: {type: int, …}}`).
 */
function paramNames(type: Pick<ImportDataType, 'params_schema'>): Set<string> {
  const schema = type.params_schema;
  const properties = schema['properties'];
  return new Set(Object.keys(properties !== null && typeof properties === 'object' ? properties : schema));
}

export interface MappedHintType {
  data_type_id: string;
  type_params: Record<string, number> | null;
}

/**
 * The registry type of a hint among a flavor's types, or why there is none. The hint's one number —
 * `precision`, or the `(n)` of `varchar(n)` — is the type's `length` when the type has a length and no
 * precision (`varchar(20)`, `char(3)`); else precision and scale (`decimal(18,2)`).
 */
export function mapHintType(hint: SchemaHint, types: readonly ImportDataType[]): MappedHintType | string {
  const match = /^\s*([^(]+?)\s*(?:\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\))?\s*$/.exec(hint.data_type);
  const code = match?.[1]?.toLowerCase();
  const type = types.find((t) => t.code.toLowerCase() === code);
  if (!type) return `data type '${hint.data_type}' is not a data type of the type system's flavor`;
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
  return { data_type_id: type.id, type_params: Object.keys(params).length > 0 ? params : null };
}
