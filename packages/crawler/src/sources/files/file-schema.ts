// What a format reader makes of one file: its columns in the storage_files flavor's codes (the Arrow
// logical types, brief §A.2) with the file's own spelling kept as native_type, and what it noticed.
import type { TypeNode } from '../../model.js';

export type FileFormat = 'parquet' | 'avro' | 'csv' | 'jsonl';

export interface FileColumn {
  name: string;
  /** The file's own type (`INT64 (TIMESTAMP(MICROS,true))`, `long (timestamp-millis)`), or the inferred type of text formats. */
  native_type: string;
  /** Null when the native type has no mapping (it is then counted in `unmapped_types`). */
  type: TypeNode | null;
  nullable: boolean;
  /** Mapped to a less precise code (counted in `approximate_types`). */
  approximate?: boolean;
}

export interface FileSchema {
  columns: FileColumn[];
  /** `none`, `snappy`, `gzip`, `zstd`, … (several codecs in one file: comma-separated, sorted). */
  compression: string;
  /** Things worth reporting that did not stop the read (mixed types in a sample, a guessed encoding). */
  notes: string[];
}

/** A type node; params and children only when present. */
export function node(
  data_type: string,
  params?: TypeNode['params'],
  children?: TypeNode['children'],
): TypeNode {
  const type: TypeNode = { data_type };
  if (params !== undefined && Object.keys(params).length > 0) type.params = params;
  if (children !== undefined) type.children = children;
  return type;
}

export function listOf(item: TypeNode): TypeNode {
  return node('list', undefined, [{ slot: 'item', type: item }]);
}

export function structOf(fields: { name: string; type: TypeNode }[]): TypeNode {
  return node(
    'struct',
    undefined,
    fields.map((field) => ({ slot: `field:${field.name}`, type: field.type })),
  );
}

/** A type tree as text: `timestamp(us, UTC)`, `list<int64>`, `struct<a: utf8, b: list<float64>>` (the inferred types' native spelling). */
export function spellType(type: TypeNode): string {
  const params = Object.values(type.params ?? {});
  const head = params.length === 0 ? type.data_type : `${type.data_type}(${params.join(', ')})`;
  const children = type.children ?? [];
  if (children.length === 0) return head;
  const inner = children.map((child) =>
    child.slot.startsWith('field:')
      ? `${child.slot.slice(6)}: ${spellType(child.type)}`
      : spellType(child.type),
  );
  return `${head}<${inner.join(', ')}>`;
}
