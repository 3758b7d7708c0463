// Protocol Buffers → columns in the `protobuf` flavor (issue 24 brief §A.1 codes; its seed file is
// written in parallel and used when present).
import { describe, expect, test } from '@jest/globals';
import { protobufColumns } from '../src/sources/kafka/protobuf-columns.js';
import type { SchemaDocument } from '../src/sources/kafka/schema-columns.js';
import { KafkaFlavor } from './helpers/kafka-flavors.js';

const flavor = new KafkaFlavor('protobuf');
const doc = (text: string, references: Record<string, string> = {}): SchemaDocument => ({
  format: 'protobuf',
  path: 'test.proto',
  text,
  references: Object.entries(references).map(([name, t]) => ({ name, path: name, text: t })),
});
const message = (body: string, head = '') => {
  const mapped = protobufColumns(doc(`syntax = "proto3";\npackage p;\n${head}\nmessage M {\n${body}\n}`));
  for (const column of mapped.columns)
    expect(column.type === null ? ['untyped'] : flavor.problems(column.type)).toEqual([]);
  return mapped;
};

describe('Protobuf fields', () => {
  test('every scalar has its own code and is not nullable; proto3 optional is nullable', () => {
    const scalars =
      'double float int32 int64 uint32 uint64 sint32 sint64 fixed32 fixed64 sfixed32 sfixed64 bool string bytes'.split(
        ' ',
      );
    const mapped = message(
      [...scalars.map((s, i) => `${s} f_${s} = ${i + 1};`), 'optional int64 maybe = 99;'].join('\n'),
    );
    expect(mapped.problems).toEqual([]);
    expect(mapped.columns.map((c) => [c.name, c.type?.data_type, c.nullable])).toEqual([
      ...scalars.map((s) => [`f_${s}`, s, false]),
      ['maybe', 'int64', true],
    ]);
    expect(mapped.columns.at(-1)?.native_type).toBe('optional int64');
  });

  test('repeated, map, enum, nested message, oneof', () => {
    const mapped = message(
      `repeated string tags = 1;
       map<string, Inner> by_id = 2;
       Kind kind = 3;
       Inner inner = 4;
       oneof choice { string a = 5; Inner b = 6; }
       int32 after = 7;
       enum Kind { KIND_UNSPECIFIED = 0; ONE = 1; }
       message Inner { int32 x = 1; }`,
    );
    const inner = {
      data_type: 'message',
      params: { name: 'M.Inner', proto_package: 'p' },
      children: [{ slot: 'field:x', type: { data_type: 'int32' } }],
    };
    expect(mapped.columns.map((c) => [c.ordinal, c.name, c.native_type, c.type, c.nullable])).toEqual([
      [
        1,
        'tags',
        'repeated string',
        { data_type: 'repeated', children: [{ slot: 'item', type: { data_type: 'string' } }] },
        false,
      ],
      [
        2,
        'by_id',
        'map<string, p.M.Inner>',
        {
          data_type: 'map',
          children: [
            { slot: 'key', type: { data_type: 'string' } },
            { slot: 'value', type: inner },
          ],
        },
        false,
      ],
      [3, 'kind', 'p.M.Kind', { data_type: 'enum', params: { name: 'M.Kind', proto_package: 'p' } }, false],
      [4, 'inner', 'p.M.Inner', inner, true],
      [
        5,
        'choice',
        'oneof choice { string a; p.M.Inner b }',
        {
          data_type: 'oneof',
          params: { name: 'choice' },
          children: [
            { slot: 'field:a', type: { data_type: 'string' } },
            { slot: 'field:b', type: inner },
          ],
        },
        true,
      ],
      [6, 'after', 'int32', { data_type: 'int32' }, false],
    ]);
  });

  test('well-known types and google.type.Date have their own codes', () => {
    const known: Record<string, [string, string]> = {
      timestamp: ['google/protobuf/timestamp.proto', 'google.protobuf.Timestamp'],
      duration: ['google/protobuf/duration.proto', 'google.protobuf.Duration'],
      any: ['google/protobuf/any.proto', 'google.protobuf.Any'],
      struct: ['google/protobuf/struct.proto', 'google.protobuf.Struct'],
      value: ['google/protobuf/struct.proto', 'google.protobuf.Value'],
      list_value: ['google/protobuf/struct.proto', 'google.protobuf.ListValue'],
      empty: ['google/protobuf/empty.proto', 'google.protobuf.Empty'],
      field_mask: ['google/protobuf/field_mask.proto', 'google.protobuf.FieldMask'],
      double_value: ['google/protobuf/wrappers.proto', 'google.protobuf.DoubleValue'],
      string_value: ['google/protobuf/wrappers.proto', 'google.protobuf.StringValue'],
      date: ['google/type/date.proto', 'google.type.Date'],
    };
    const imports = [...new Set(Object.values(known).map(([file]) => `import "${file}";`))].join('\n');
    const mapped = message(
      Object.entries(known)
        .map(([code, [, type]], i) => `${type} f_${code} = ${i + 1};`)
        .join('\n'),
      imports,
    );
    expect(mapped.problems).toEqual([]);
    expect(mapped.columns.map((c) => [c.type?.data_type, c.nullable])).toEqual(
      Object.keys(known).map((code) => [code, true]),
    );
  });

  test('imports come from the references; the first message of the file is the record; comments kept', () => {
    const mapped = protobufColumns(
      doc(
        'syntax = "proto3";\npackage a;\nimport "lib/money.proto";\n// The order.\nmessage Order {\n  // Its total.\n  lib.Money total = 1;\n}\nmessage Other { int32 x = 1; }',
        {
          'lib/money.proto':
            'syntax = "proto3";\npackage lib;\nimport "lib/currency.proto";\nmessage Money { Currency currency = 1; int64 units = 2; }',
          'lib/currency.proto': 'syntax = "proto3";\npackage lib;\nenum Currency { EUR = 0; }',
        },
      ),
    );
    expect(mapped).toMatchObject({ record_name: 'a.Order', comment: 'The order.', problems: [] });
    expect(mapped.columns).toMatchObject([
      {
        name: 'total',
        comment: 'Its total.',
        type: { data_type: 'message', params: { name: 'Money', proto_package: 'lib' } },
      },
    ]);
  });

  test("Confluent's built-in imports (field options, confluent.type.Decimal) need no reference", () => {
    const mapped = message(
      'confluent.type.Decimal price = 1 [(confluent.field_meta).params = { key: "precision" value: "10" }];\nstring sku = 2 [(confluent.field_meta).doc = "The SKU"];',
      'import "confluent/meta.proto";\nimport "confluent/type/decimal.proto";',
    );
    expect(mapped.problems).toEqual([]);
    expect(mapped.columns.map((c) => [c.name, c.type?.data_type, c.type?.params])).toEqual([
      ['price', 'message', { name: 'Decimal', proto_package: 'confluent.type' }],
      ['sku', 'string', undefined],
    ]);
  });

  test('proto2 files: required is not nullable, optional is, defaults are kept', () => {
    const mapped = protobufColumns(
      doc('syntax = "proto2";\nmessage M { required int32 a = 1; optional string b = 2 [default = "x"]; }'),
    );
    expect(mapped.columns.map((c) => [c.name, c.nullable, c.default])).toEqual([
      ['a', false, null],
      ['b', true, '"x"'],
    ]);
  });

  test('a recursive message is listed once and reported', () => {
    const mapped = protobufColumns(doc('syntax = "proto3";\nmessage Node { int32 v = 1; Node next = 2; }'));
    expect(mapped.columns[1].type).toEqual({ data_type: 'message', params: { name: 'Node' } });
    expect(mapped.problems).toHaveLength(1);
  });

  test('what protobufjs refuses is one problem, never a crash', () => {
    expect(protobufColumns(doc('syntax = "proto3"; message {')).problems[0].reason).toMatch(
      /^not a valid .proto file/,
    );
    expect(
      protobufColumns(doc('syntax = "proto3"; import "nope.proto"; message A { int32 a = 1; }')).problems[0]
        .reason,
    ).toBe('not a valid .proto file: import "nope.proto" not found');
    expect(
      protobufColumns(doc('syntax = "proto3"; message A { Missing m = 1; }')).problems[0].reason,
    ).toMatch(/no such Type or Enum 'Missing'/);
    expect(protobufColumns(doc('syntax = "proto3"; enum E { A = 0; }')).problems[0].reason).toBe(
      'the file declares no message',
    );
  });
});
