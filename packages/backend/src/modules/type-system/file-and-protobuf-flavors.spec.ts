// The flavors of issue 24 §1: protobuf (kind kafka) and the file flavors storage_files/sftp_files, one
// Arrow type list declared once (ADR 0044), and the seed format that declares several flavors.
import { describe, expect, it } from '@jest/globals';
import {
  loadSeedDirectory,
  parseSeedFile,
  parseSeedFiles,
  SeedFileError,
  type SeedFile,
} from './seed-file.js';
import { renderTemplate } from './template-renderer.js';
import type { TemplateContext } from './render-context.js';

const seeds = await loadSeedDirectory();
const flavor = (code: string): SeedFile => {
  const found = seeds.typeFiles.find((entry) => entry.file.flavor.code === code);
  if (found === undefined) throw new Error(`no seed file for ${code}`);
  return found.file;
};
const render = (code: string, type: string, context: TemplateContext = {}) => {
  const template = flavor(code).types.find((t) => t.code === type)?.render_template;
  if (template === undefined || template === null) throw new Error(`no template for ${code}.${type}`);
  return renderTemplate(template, context);
};

const PROTOBUF_CODES = [
  ...['double', 'float', 'int32', 'int64', 'uint32', 'uint64', 'sint32', 'sint64'],
  ...['fixed32', 'fixed64', 'sfixed32', 'sfixed64', 'bool', 'string', 'bytes'],
  ...['enum', 'message', 'repeated', 'map', 'oneof'],
  ...['timestamp', 'duration', 'any', 'struct', 'value', 'list_value', 'empty', 'field_mask'],
  ...['double_value', 'float_value', 'int64_value', 'uint64_value', 'int32_value', 'uint32_value'],
  ...['bool_value', 'string_value', 'bytes_value', 'date'],
];

const ARROW_CODES = [
  ...['null', 'boolean', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64'],
  ...['float16', 'float32', 'float64', 'decimal', 'date32', 'date64', 'time32', 'time64', 'timestamp'],
  ...['duration', 'interval', 'utf8', 'large_utf8', 'binary', 'large_binary', 'fixed_size_binary'],
  ...['list', 'large_list', 'fixed_size_list', 'map', 'struct', 'union'],
  ...['uuid', 'json', 'variant', 'geometry', 'geography'],
];

describe('the protobuf flavor', () => {
  it('is a kafka flavor with the proto3 scalars, containers and well-known types, nothing else', () => {
    const protobuf = flavor('protobuf');
    expect(protobuf.kind.code).toBe('kafka');
    expect(protobuf.types.map((t) => t.code).sort()).toEqual([...PROTOBUF_CODES].sort());
  });

  it('renders proto field types', () => {
    expect(render('protobuf', 'int64')).toBe('int64');
    expect(render('protobuf', 'map', { children: { key: 'string', value: 'int64' } })).toBe(
      'map<string, int64>',
    );
    const timestamp = render('protobuf', 'timestamp');
    expect(timestamp).toBe('google.protobuf.Timestamp');
    expect(render('protobuf', 'repeated', { children: { item: timestamp } })).toBe(
      'repeated google.protobuf.Timestamp',
    );
    expect(render('protobuf', 'uint64_value')).toBe('google.protobuf.UInt64Value');
    expect(render('protobuf', 'date')).toBe('google.type.Date');
    expect(render('protobuf', 'enum', { params: { name: 'Status', proto_package: 'shop.v1' } })).toBe(
      'shop.v1.Status',
    );
    const fields = [
      { name: 'id', type: 'int64' },
      { name: 'email', type: 'string' },
    ];
    expect(render('protobuf', 'message', { params: { name: 'Customer' } })).toBe('Customer');
    expect(
      render('protobuf', 'message', { params: { name: 'Customer', proto_package: 'shop' }, fields }),
    ).toBe('shop.Customer { int64 id; string email; }');
    expect(render('protobuf', 'oneof', { params: { name: 'contact' }, fields })).toBe(
      'oneof contact { int64 id; string email; }',
    );
  });
});

describe('the file flavors', () => {
  it('are storage_files (kind storage) and sftp_files (kind sftp), one Arrow type list declared once', () => {
    const [storage, sftp] = [flavor('storage_files'), flavor('sftp_files')];
    expect([storage.kind.code, sftp.kind.code]).toEqual(['storage', 'sftp']);
    expect(storage.types.map((t) => t.code).sort()).toEqual([...ARROW_CODES].sort());
    expect(sftp.types).toEqual(storage.types);
    const paths = seeds.typeFiles.filter((e) => ['storage_files', 'sftp_files'].includes(e.file.flavor.code));
    expect(new Set(paths.map((e) => e.path)).size).toBe(1);
  });

  it('render as Arrow prints its types', () => {
    expect(render('storage_files', 'timestamp', { params: { unit: 'us', timezone: 'UTC' } })).toBe(
      'timestamp[us, tz=UTC]',
    );
    expect(render('storage_files', 'timestamp', { params: { unit: 'ns' } })).toBe('timestamp[ns]');
    expect(render('storage_files', 'decimal', { params: { precision: 12, scale: 2 } })).toBe(
      'decimal128(12, 2)',
    );
    expect(render('sftp_files', 'decimal', { params: { precision: 40, scale: 2 } })).toBe(
      'decimal256(40, 2)',
    );
    expect(render('storage_files', 'time32', { params: { unit: 'ms' } })).toBe('time32[ms]');
    expect(render('storage_files', 'interval', { params: { unit: 'year_month' } })).toBe('month_interval');
    expect(render('storage_files', 'interval', { params: { unit: 'month_day_nano' } })).toBe(
      'month_day_nano_interval',
    );
    expect(render('storage_files', 'list', { children: { item: 'string' } })).toBe('list<item: string>');
    expect(render('storage_files', 'map', { children: { key: 'string', value: 'int64' } })).toBe(
      'map<string, int64>',
    );
    expect(
      render('storage_files', 'map', {
        params: { keys_sorted: true },
        children: { key: 'int32', value: 'bool' },
      }),
    ).toBe('map<int32, bool, keys_sorted>');
    const fields = [
      { name: 'a', type: 'int32' },
      { name: 'b', type: 'string' },
    ];
    expect(render('storage_files', 'struct', { fields })).toBe('struct<a: int32, b: string>');
    expect(render('storage_files', 'union', { params: { mode: 'dense' }, fields })).toBe(
      'dense_union<a: int32=0, b: string=1>',
    );
    expect(render('storage_files', 'fixed_size_binary', { params: { byte_width: 16 } })).toBe(
      'fixed_size_binary[16]',
    );
    expect(render('storage_files', 'geography', { params: { crs: 'OGC:CRS84' } })).toBe(
      'extension<geoarrow.wkb[edges=spherical, crs=OGC:CRS84]>',
    );
  });
});

describe('a seed file of several flavors', () => {
  const text = [
    'flavors:',
    '  - { kind: storage, code: a_files, name: A }',
    '  - { kind: {code: sftp, name: SFTP}, code: b_files, name: B, versions: ["1"] }',
    'types:',
    '  - { code: t, render_template: t }',
  ].join('\n');
  const issues = (source: string) => {
    try {
      parseSeedFiles(source);
    } catch (err) {
      if (err instanceof SeedFileError) return err.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
      throw err;
    }
    return [];
  };

  it('gives one flavor per entry, each with the one type list', () => {
    const files = parseSeedFiles(text);
    expect(files.map((f) => [f.kind, f.flavor])).toEqual([
      [{ code: 'storage' }, { code: 'a_files', name: 'A', vendor: null, versions: [] }],
      [
        { code: 'sftp', name: 'SFTP' },
        { code: 'b_files', name: 'B', vendor: null, versions: ['1'] },
      ],
    ]);
    expect(files[1]?.types).toEqual(files[0]?.types);
    expect(() => parseSeedFile(text)).toThrow(/declares several flavors/);
  });

  it('takes kind and flavor, or flavors, never both nor a duplicate flavor', () => {
    expect(issues(`kind: storage\nflavor: {code: c, name: C}\n${text}`)).toEqual([
      ': give kind and flavor, or flavors, not both',
    ]);
    expect(issues('kind: storage\ntypes: []')).toEqual(['flavor: required with kind/flavor']);
    expect(
      issues(
        'flavors:\n  - {kind: storage, code: a, name: A}\n  - {kind: sftp, code: a, name: A}\ntypes: []',
      ),
    ).toEqual(['flavors: Duplicate flavor codes in seed file: [a]']);
    expect(issues('flavors: []\ntypes: []')).toHaveLength(1);
  });
});
