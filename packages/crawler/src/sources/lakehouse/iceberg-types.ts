// Iceberg's schema (table metadata JSON, spec §"Schemas and Data Types") → the `iceberg_v2` flavor's
// codes, the type spelled as the spec writes it as the native type. Iceberg v3 types without an
// iceberg_v2 code (timestamp_ns, timestamptz_ns, variant, unknown, geometry, geography) are left
// unmapped and reported, never guessed. Spec: https://iceberg.apache.org/spec/#schemas-and-data-types
// The primitive names are the catalog spellings of `@aide/schemas` (ADR 0062).
import { codeOf, ICEBERG_V2_CATALOG_SPELLINGS } from '@aide/schemas/type-spellings';
import type { TypeNode } from '../../model.js';
import { nested, node } from '../../normalise/type-log.js';

export type IcebergType =
  | string
  | { type: 'struct'; fields: IcebergField[] }
  | { type: 'list'; 'element-id'?: number; element: IcebergType; 'element-required'?: boolean }
  | {
      type: 'map';
      'key-id'?: number;
      key: IcebergType;
      'value-id'?: number;
      value: IcebergType;
      'value-required'?: boolean;
    };

export interface IcebergField {
  id: number;
  name: string;
  required: boolean;
  type: IcebergType;
  doc?: string;
  'initial-default'?: unknown;
  'write-default'?: unknown;
}

const DECIMAL = /^decimal\(\s*(\d+)\s*,\s*(\d+)\s*\)$/;
const FIXED = /^fixed\[\s*(\d+)\s*\]$/;

/** The spec's text of a type (`decimal(10,2)`, `list<struct<a:int>>`). */
export function icebergTypeText(type: IcebergType): string {
  if (typeof type === 'string') return type;
  switch (type.type) {
    case 'struct':
      return `struct<${type.fields.map((f) => `${f.name}:${icebergTypeText(f.type)}`).join(',')}>`;
    case 'list':
      return `list<${icebergTypeText(type.element)}>`;
    case 'map':
      return `map<${icebergTypeText(type.key)},${icebergTypeText(type.value)}>`;
  }
}

/** A type tree in iceberg_v2 codes; null when a part has none (the column is reported unmapped). */
export function mapIcebergType(type: IcebergType): TypeNode | null {
  if (typeof type === 'string') return mapPrimitive(type.trim());
  if (type === null || typeof type !== 'object') return null;
  switch (type.type) {
    case 'struct':
      if (!Array.isArray(type.fields)) return null;
      return nested(
        'struct',
        type.fields.map((field) => [`field:${field.name}`, mapIcebergType(field.type)]),
      );
    case 'list':
      return nested('list', [['element', mapIcebergType(type.element)]]);
    case 'map':
      return nested('map', [
        ['key', mapIcebergType(type.key)],
        ['value', mapIcebergType(type.value)],
      ]);
    default:
      return null;
  }
}

function mapPrimitive(name: string): TypeNode | null {
  const code = codeOf(ICEBERG_V2_CATALOG_SPELLINGS, name);
  if (code !== undefined) return node(code);
  const decimal = DECIMAL.exec(name);
  if (decimal !== null) {
    const precision = Number(decimal[1]);
    const scale = Number(decimal[2]);
    if (precision < 1 || precision > 38 || scale > precision) return null;
    return node('decimal', { precision, scale });
  }
  const fixed = FIXED.exec(name);
  if (fixed !== null && Number(fixed[1]) >= 1) return node('fixed', { length: Number(fixed[1]) });
  return null;
}
