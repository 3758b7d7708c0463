// Parquet: the footer only (last 8 bytes → footer length → the Thrift FileMetaData), parsed by
// hyparquet, never the data pages. Every physical type, logical and converted type, nested groups,
// LIST and MAP with the legacy shapes of the format's backward-compatibility rules map to the Arrow
// codes of the storage_files flavor; the Parquet spelling is kept as native_type.
import { parquetMetadata, parquetSchema } from 'hyparquet';
import type { FileMetaData, LogicalType, SchemaElement, SchemaTree } from 'hyparquet';
import type { TypeNode } from '../../model.js';
import type { FileStore, StoredFile } from './file-store.js';
import { listOf, node, structOf, type FileColumn, type FileSchema } from './file-schema.js';
import { parquetPrimitive, spellParquet } from './parquet-types.js';

const MAGIC = 0x31524150; // "PAR1", little-endian
const ENCRYPTED_MAGIC = 0x45524150; // "PARE"

export async function readParquet(
  store: FileStore,
  file: StoredFile,
  signal?: AbortSignal,
): Promise<FileSchema> {
  if (file.size < 12) throw new Error(`too short for a Parquet file (${file.size} bytes)`);
  // Offsets from the listed size: a store needs no stat to find the end.
  const tail = await store.read(file.path, file.size - 8, file.size, signal);
  const view = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  const magic = view.getUint32(4, true);
  if (magic === ENCRYPTED_MAGIC)
    throw new Error('encrypted Parquet footer (PARE): cannot be read without its key');
  if (magic !== MAGIC) throw new Error('not a Parquet file or truncated: no PAR1 magic at the end');
  const length = view.getUint32(0, true);
  if (length > file.size - 12)
    throw new Error(`footer length ${length} exceeds the file (${file.size} bytes): truncated`);
  const footer = new Uint8Array(length + 8);
  footer.set(await store.read(file.path, file.size - 8 - length, file.size - 8, signal), 0);
  footer.set(tail, length);
  let metadata: FileMetaData;
  let root: SchemaTree;
  try {
    metadata = parquetMetadata(footer, { geoparquet: false });
    root = parquetSchema(metadata); // throws on a schema whose num_children do not add up
  } catch (error) {
    throw new Error(`corrupt footer: ${(error as Error).message}`, { cause: error });
  }
  return { columns: root.children.map(column), compression: codecs(metadata), notes: [] };
}

function codecs(metadata: FileMetaData): string {
  const names = new Set<string>();
  for (const group of metadata.row_groups) {
    for (const chunk of group.columns) {
      const codec = chunk.meta_data?.codec;
      if (codec !== undefined) names.add(codec === 'UNCOMPRESSED' ? 'none' : codec.toLowerCase());
    }
  }
  return names.size === 0 ? 'none' : [...names].sort().join(',');
}

interface Converted {
  type: TypeNode | null;
  native: string;
  approximate: boolean;
}

function column(tree: SchemaTree): FileColumn {
  const converted = convert(tree, false);
  const repetition = tree.element.repetition_type;
  return {
    name: tree.element.name,
    native_type: converted.native,
    type: converted.type,
    nullable: repetition === undefined || repetition === 'OPTIONAL',
    ...(converted.approximate ? { approximate: true } : {}),
  };
}

/** A schema node as a type; a REPEATED node outside a LIST/MAP is a list of itself (the legacy 1-level list). */
function convert(tree: SchemaTree, asElement: boolean): Converted {
  const inner =
    tree.children.length > 0 || tree.element.type === undefined ? group(tree) : primitive(tree.element);
  if (tree.element.repetition_type !== 'REPEATED' || asElement) return inner;
  return {
    ...inner,
    type: inner.type === null ? null : listOf(inner.type),
    native: `repeated ${inner.native}`,
  };
}

function primitive(element: SchemaElement): Converted {
  const mapped = parquetPrimitive(element);
  return {
    type: mapped?.type ?? null,
    native: spellParquet(element),
    approximate: mapped?.approximate ?? false,
  };
}

function annotation(element: SchemaElement): string | undefined {
  return element.logical_type?.type ?? element.converted_type;
}

function group(tree: SchemaTree): Converted {
  const kind = annotation(tree.element);
  if (kind === 'LIST') return list(tree);
  if (kind === 'MAP' || kind === 'MAP_KEY_VALUE') return map(tree);
  if (kind === 'VARIANT') {
    const version = (tree.element.logical_type as Extract<LogicalType, { type: 'VARIANT' }>)
      .specification_version;
    return {
      type: node('variant'),
      native: version === undefined ? 'group (VARIANT)' : `group (VARIANT(${version}))`,
      approximate: false,
    };
  }
  return struct(tree.children, kind === undefined ? 'group' : `group (${kind})`);
}

function struct(children: SchemaTree[], native: string): Converted {
  const fields = children.map((child) => ({ name: child.element.name, converted: convert(child, false) }));
  const unmapped = fields.some((field) => field.converted.type === null);
  return {
    type: unmapped
      ? null
      : structOf(fields.map((field) => ({ name: field.name, type: field.converted.type as TypeNode }))),
    native,
    approximate: fields.some((field) => field.converted.approximate),
  };
}

/**
 * LIST, after the format's LogicalTypes.md backward-compatibility rules: the repeated child is the
 * element when it is primitive, a group of several fields, or named `array` / `<list>_tuple` (2-level
 * lists of old writers); otherwise it is the 3-level wrapper and its one child is the element.
 */
function list(tree: SchemaTree): Converted {
  const repeated = tree.children[0];
  if (tree.children.length !== 1 || repeated.element.repetition_type !== 'REPEATED') {
    return struct(tree.children, 'group (LIST, malformed: read as a group)');
  }
  const twoLevel =
    repeated.children.length === 0 ||
    repeated.children.length > 1 ||
    repeated.element.name === 'array' ||
    repeated.element.name === `${tree.element.name}_tuple`;
  const element = twoLevel ? convert(repeated, true) : convert(repeated.children[0], false);
  return {
    type: element.type === null ? null : listOf(element.type),
    native: `group (LIST${twoLevel ? ', 2-level' : ''})<${element.native}>`,
    approximate: element.approximate,
  };
}

/** MAP (and the legacy MAP_KEY_VALUE): one repeated group of `key` and an optional `value`. */
function map(tree: SchemaTree): Converted {
  const entries = tree.children[0];
  if (tree.children.length !== 1 || entries.children.length < 1 || entries.children.length > 2) {
    return struct(tree.children, `group (${annotation(tree.element)}, malformed: read as a group)`);
  }
  const key = convert(entries.children[0], false);
  // A map without values (a set, allowed by the spec) gets null values.
  const value =
    entries.children.length === 2
      ? convert(entries.children[1], false)
      : { type: node('null'), native: 'none', approximate: false };
  const mapped = key.type !== null && value.type !== null;
  return {
    type: mapped
      ? node('map', undefined, [
          { slot: 'key', type: key.type as TypeNode },
          { slot: 'value', type: value.type as TypeNode },
        ])
      : null,
    native: `group (${annotation(tree.element)})<${key.native}, ${value.native}>`,
    approximate: key.approximate || value.approximate,
  };
}
