// Avro object container files: the header only (magic, the metadata map with avro.schema and
// avro.codec, the sync marker), decoded and the schema parsed by avsc; the data blocks are never read.
import avro from 'avsc';
import type { TypeNode } from '../../model.js';
import type { FileStore, StoredFile } from './file-store.js';
import { listOf, node, type FileColumn, type FileSchema } from './file-schema.js';

const HEADER = avro.Type.forSchema({
  type: 'record',
  name: 'org.apache.avro.file.Header',
  fields: [
    { name: 'magic', type: { type: 'fixed', name: 'Magic', size: 4 } },
    { name: 'meta', type: { type: 'map', values: 'bytes' } },
    { name: 'sync', type: { type: 'fixed', name: 'Sync', size: 16 } },
  ],
});
const MAGIC = Buffer.from('Obj\x01', 'latin1');
const FIRST_READ = 64 * 1024;
const MAX_HEADER = 64 * 1024 * 1024;
const CODECS: Record<string, string> = {
  null: 'none',
  deflate: 'deflate',
  snappy: 'snappy',
  zstandard: 'zstd',
  bzip2: 'bzip2',
  xz: 'xz',
};

/** Keeps a logical type's attributes (precision, scale) so the mapping can read them. */
class KeptLogicalType extends avro.types.LogicalType {
  readonly attributes: Record<string, unknown>;
  constructor(schema: avro.Schema, opts?: object) {
    super(schema, opts);
    this.attributes = schema as unknown as Record<string, unknown>;
    if (this.typeName === 'logical:decimal') {
      const { precision, scale = 0 } = this.attributes as { precision?: unknown; scale?: unknown };
      // An invalid decimal falls back to its underlying type, as the specification requires.
      if (
        !Number.isInteger(precision) ||
        !Number.isInteger(scale) ||
        (scale as number) < 0 ||
        (scale as number) > (precision as number)
      ) {
        throw new Error('invalid decimal');
      }
    }
  }
  protected override _fromValue(value: unknown): unknown {
    return value;
  }
  protected override _toValue(value: unknown): unknown {
    return value;
  }
}

const LOGICAL_NAMES = [
  'decimal',
  'big-decimal',
  'uuid',
  'date',
  'time-millis',
  'time-micros',
  'timestamp-millis',
  'timestamp-micros',
  'timestamp-nanos',
  'local-timestamp-millis',
  'local-timestamp-micros',
  'local-timestamp-nanos',
  'duration',
];
const LOGICAL_TYPES = Object.fromEntries(LOGICAL_NAMES.map((name) => [name, KeptLogicalType]));

export async function readAvro(
  store: FileStore,
  file: StoredFile,
  signal?: AbortSignal,
): Promise<FileSchema> {
  let length = Math.min(FIRST_READ, file.size);
  let bytes = Buffer.from(await store.read(file.path, 0, length, signal));
  if (bytes.length < 4 || !bytes.subarray(0, 4).equals(MAGIC))
    throw new Error('not an Avro container file: no Obj\\x01 magic');
  for (;;) {
    let decoded: { value: { meta: Record<string, Buffer> } | undefined; offset: number };
    try {
      decoded = HEADER.decode(bytes, 0);
    } catch (error) {
      throw new Error(`corrupt header: ${(error as Error).message}`, { cause: error });
    }
    if (decoded.offset >= 0 && decoded.value !== undefined) return fromHeader(decoded.value.meta);
    if (length >= file.size || length >= MAX_HEADER)
      throw new Error('truncated header: the metadata map does not end');
    const more = Buffer.from(
      await store.read(file.path, length, Math.min(length * 4, file.size, MAX_HEADER), signal),
    );
    bytes = Buffer.concat([bytes, more]);
    length = bytes.length;
  }
}

function fromHeader(meta: Record<string, Buffer>): FileSchema {
  const text = meta['avro.schema']?.toString('utf8');
  if (text === undefined) throw new Error('header has no avro.schema');
  const codec = meta['avro.codec']?.toString('utf8') ?? 'null';
  let type: avro.Type;
  try {
    type = avro.Type.forSchema(JSON.parse(text) as avro.Schema, {
      logicalTypes: LOGICAL_TYPES,
      wrapUnions: true,
    });
  } catch (error) {
    throw new Error(`invalid avro.schema: ${(error as Error).message}`, { cause: error });
  }
  return { columns: avroColumns(type), compression: CODECS[codec] ?? codec, notes: [] };
}

/** A record's fields as columns; any other top-level type is one column named `value`. */
export function avroColumns(type: avro.Type): FileColumn[] {
  const fields =
    type instanceof avro.types.RecordType
      ? type.fields.map((field) => ({ name: field.name, type: field.type }))
      : [{ name: 'value', type }];
  return fields.map(({ name, type: fieldType }) => {
    const { inner, nullable } = unwrapNull(fieldType);
    const mapped = avroType(inner);
    return {
      name,
      native_type: spellAvro(fieldType),
      type: mapped.type,
      nullable,
      ...(mapped.approximate ? { approximate: true } : {}),
    };
  });
}

/** `["null", X]` is a nullable X. */
function unwrapNull(type: avro.Type): { inner: avro.Type; nullable: boolean } {
  if (!isUnion(type)) return { inner: type, nullable: type.typeName === 'null' };
  const branches = type.types.filter((branch) => branch.typeName !== 'null');
  const nullable = branches.length < type.types.length;
  if (branches.length === 1) return { inner: branches[0], nullable };
  return { inner: nullable ? avro.Type.forTypes(branches, { wrapUnions: true }) : type, nullable };
}

function isUnion(type: avro.Type): type is avro.types.WrappedUnionType {
  return type.typeName.startsWith('union');
}

interface Mapped {
  type: TypeNode | null;
  approximate: boolean;
}

function avroType(type: avro.Type): Mapped {
  const exact = (mapped: TypeNode | null): Mapped => ({ type: mapped, approximate: false });
  const children = (
    entries: { slot: string; type: avro.Type }[],
    code: string,
    params?: TypeNode['params'],
  ): Mapped => {
    const mapped = entries.map((entry) => ({
      slot: entry.slot,
      mapped: avroType(unwrapNull(entry.type).inner),
    }));
    if (mapped.some((entry) => entry.mapped.type === null)) return exact(null);
    return {
      type: node(
        code,
        params,
        mapped.map((entry) => ({ slot: entry.slot, type: entry.mapped.type as TypeNode })),
      ),
      approximate: mapped.some((entry) => entry.mapped.approximate),
    };
  };
  if (type instanceof KeptLogicalType) return logical(type);
  switch (type.typeName) {
    case 'null':
      return exact(node('null'));
    case 'boolean':
      return exact(node('boolean'));
    case 'int':
      return exact(node('int32'));
    case 'long':
      return exact(node('int64'));
    case 'float':
      return exact(node('float32'));
    case 'double':
      return exact(node('float64'));
    case 'bytes':
      return exact(node('binary'));
    case 'string':
    case 'enum': // Arrow reads enums as dictionary-encoded strings: their value type
      return exact(node('utf8'));
    case 'fixed':
      return exact(node('fixed_size_binary', { byte_width: (type as avro.types.FixedType).size }));
    case 'array': {
      const item = avroType(unwrapNull((type as avro.types.ArrayType).itemsType).inner);
      return { type: item.type === null ? null : listOf(item.type), approximate: item.approximate };
    }
    case 'map':
      return children(
        [
          { slot: 'key', type: avro.Type.forSchema('string') },
          { slot: 'value', type: (type as avro.types.MapType).valuesType as avro.Type },
        ],
        'map',
      );
    case 'record':
    case 'error':
      return children(
        (type as avro.types.RecordType).fields.map((field) => ({
          slot: `field:${field.name}`,
          type: field.type,
        })),
        'struct',
      );
    default:
      if (isUnion(type)) {
        return children(
          type.types.map((branch) => ({ slot: `field:${branchName(branch)}`, type: branch })),
          'union',
          { mode: 'dense' },
        );
      }
      return exact(null);
  }
}

function logical(type: KeptLogicalType): Mapped {
  const underlying = type.underlyingType.typeName;
  const attributes = type.attributes;
  switch (type.typeName.slice('logical:'.length)) {
    case 'decimal':
      return {
        type:
          (attributes.precision as number) <= 76
            ? node('decimal', {
                precision: attributes.precision as number,
                scale: (attributes.scale as number | undefined) ?? 0,
              })
            : null,
        approximate: false,
      };
    case 'big-decimal':
      // Unbounded precision and a per-value scale: no Arrow decimal holds it; the bytes are kept.
      return { type: node('binary'), approximate: true };
    case 'uuid':
      return { type: node('uuid'), approximate: false };
    case 'date':
      return { type: node('date32'), approximate: false };
    case 'time-millis':
      return { type: node('time32', { unit: 'ms' }), approximate: false };
    case 'time-micros':
      return { type: node('time64', { unit: 'us' }), approximate: false };
    case 'duration':
      return { type: node('interval', { unit: 'month_day_nano' }), approximate: false };
    default: {
      const [, local, unit] = /^(local-)?timestamp-(millis|micros|nanos)$/.exec(type.typeName.slice(8)) ?? [];
      if (unit === undefined) return avroType(type.underlyingType);
      const code = unit === 'millis' ? 'ms' : unit === 'micros' ? 'us' : 'ns';
      return {
        type: node('timestamp', local === undefined ? { unit: code, timezone: 'UTC' } : { unit: code }),
        approximate: underlying !== 'long',
      };
    }
  }
}

function branchName(type: avro.Type): string {
  return type.branchName ?? type.typeName;
}

/** The Avro spelling: `long`, `long (timestamp-micros)`, `record com.acme.Address`, `["null", "string"]`, `array<int>`. */
export function spellAvro(type: avro.Type): string {
  if (type instanceof KeptLogicalType) {
    const { precision, scale } = type.attributes as { precision?: number; scale?: number };
    const name = type.typeName.slice(8);
    const detail = name === 'decimal' ? `decimal(${precision ?? '?'},${scale ?? 0})` : name;
    return `${spellAvro(type.underlyingType)} (${detail})`;
  }
  if (isUnion(type)) return `[${type.types.map((branch) => JSON.stringify(spellAvro(branch))).join(', ')}]`;
  switch (type.typeName) {
    case 'record':
    case 'error':
    case 'enum':
      return `${type.typeName} ${type.name ?? ''}`.trim();
    case 'fixed':
      return `fixed ${type.name ?? ''}(${(type as avro.types.FixedType).size})`;
    case 'array':
      return `array<${spellAvro((type as avro.types.ArrayType).itemsType)}>`;
    case 'map':
      return `map<${spellAvro((type as avro.types.MapType).valuesType as avro.Type)}>`;
    default:
      return type.typeName;
  }
}
