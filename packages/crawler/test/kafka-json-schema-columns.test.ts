// JSON Schema (2020-12 and draft-07) → columns in the `json_schema` flavor, checked against
// packages/backend/seeds/json_schema.yaml.
import { describe, expect, test } from '@jest/globals';
import { jsonSchemaColumns } from '../src/sources/kafka/json-schema-columns.js';
import type { SchemaDocument } from '../src/sources/kafka/schema-columns.js';
import { KafkaFlavor } from './helpers/kafka-flavors.js';

const flavor = new KafkaFlavor('json_schema');
const doc = (schema: unknown, references: { name: string; schema: unknown }[] = []): SchemaDocument => ({
  format: 'json',
  path: 'test.json',
  text: JSON.stringify(schema),
  references: references.map((r) => ({ name: r.name, path: r.name, text: JSON.stringify(r.schema) })),
});
const columnsOf = (schema: unknown, references: { name: string; schema: unknown }[] = []) => {
  const mapped = jsonSchemaColumns(doc(schema, references), 'value');
  for (const column of mapped.columns)
    expect(column.type === null ? [] : flavor.problems(column.type)).toEqual([]);
  return mapped;
};
const property = (schema: unknown, required = true) => {
  const mapped = columnsOf({
    type: 'object',
    properties: { p: schema },
    ...(required ? { required: ['p'] } : {}),
  });
  expect(mapped.problems).toEqual([]);
  return mapped.columns[0];
};

describe('JSON Schema types', () => {
  test.each([
    [{ type: 'integer' }, 'integer'],
    [{ type: 'number' }, 'number'],
    [{ type: 'boolean' }, 'boolean'],
    [{ type: 'string' }, 'string'],
    [{ type: 'null' }, 'null'],
    [{ type: 'string', format: 'date' }, 'date'],
    [{ type: 'string', format: 'time' }, 'time'],
    [{ type: 'string', format: 'date-time' }, 'date_time'],
    [{ type: 'string', format: 'duration' }, 'duration'],
    [{ type: 'string', format: 'uuid' }, 'uuid'],
    [{ type: 'string', format: 'email' }, 'email'],
    [{ type: 'string', format: 'uri' }, 'uri'],
    [{ type: 'string', format: 'hostname' }, 'hostname'],
    [{ type: 'string', format: 'ipv4' }, 'ipv4'],
    [{ type: 'string', format: 'ipv6' }, 'ipv6'],
    [{ type: 'string', format: 'regex' }, 'string'],
    [{ type: 'string', contentEncoding: 'base64' }, 'bytes'],
    [{}, 'any'],
    [true, 'any'],
  ])('%j is %s', (schema, code) => {
    expect(property(schema).type).toEqual({ data_type: code });
  });

  test('maxLength, enum, const, arrays (items and draft-07 tuples), maps', () => {
    expect(property({ type: 'string', maxLength: 40 }).type).toEqual({
      data_type: 'string',
      params: { max_length: 40 },
    });
    expect(property({ enum: ['a', 1] }).type).toEqual({ data_type: 'enum', params: { symbols: '"a",1' } });
    expect(property({ const: 'x' }).type).toEqual({ data_type: 'enum', params: { symbols: '"x"' } });
    expect(property({ type: 'array', items: { type: 'integer' } }).type).toEqual({
      data_type: 'array',
      children: [{ slot: 'element', type: { data_type: 'integer' } }],
    });
    expect(property({ type: 'array', items: [{ type: 'integer' }, { type: 'string' }] }).type).toEqual({
      data_type: 'array',
      children: [
        {
          slot: 'element',
          type: {
            data_type: 'one_of',
            children: [
              { slot: 'field:0', type: { data_type: 'integer' } },
              { slot: 'field:1', type: { data_type: 'string' } },
            ],
          },
        },
      ],
    });
    expect(property({ type: 'object', additionalProperties: { type: 'number' } }).type).toEqual({
      data_type: 'map',
      children: [{ slot: 'value', type: { data_type: 'number' } }],
    });
  });

  test('nullability: not required, a type array with null, a oneOf/anyOf null branch, an enum with null', () => {
    expect(property({ type: 'string' }, false).nullable).toBe(true);
    expect(property({ type: 'string' }).nullable).toBe(false);
    expect(property({ type: ['string', 'null'] })).toMatchObject({
      nullable: true,
      type: { data_type: 'string' },
    });
    expect(property({ oneOf: [{ type: 'null' }, { type: 'integer' }] })).toMatchObject({
      nullable: true,
      type: { data_type: 'integer' },
    });
    expect(property({ anyOf: [{ type: 'integer' }, { type: 'null' }] })).toMatchObject({
      nullable: true,
      type: { data_type: 'integer' },
    });
    expect(property({ enum: ['a', null] })).toMatchObject({
      nullable: true,
      type: { params: { symbols: '"a"' } },
    });
    expect(property({ type: ['integer', 'string'] }).type).toEqual({
      data_type: 'one_of',
      children: [
        { slot: 'field:0', type: { data_type: 'integer' } },
        { slot: 'field:1', type: { data_type: 'string' } },
      ],
    });
  });

  test('defaults as JSON text, description (else title) as comment', () => {
    expect(property({ type: 'integer', default: 3, description: 'd', title: 't' })).toMatchObject({
      default: '3',
      comment: 'd',
    });
    expect(property({ type: 'integer', title: 't' })).toMatchObject({ default: null, comment: 't' });
  });
});

describe('JSON Schema references and composition', () => {
  test('$ref into $defs (2020-12) and definitions (draft-07), nested, and into a referenced document', () => {
    const mapped = columnsOf(
      {
        type: 'object',
        properties: {
          a: { $ref: '#/$defs/a' },
          b: { $ref: '#/definitions/b' },
          c: { $ref: 'other.json#/$defs/c' },
          d: { $ref: 'other.json' },
        },
        $defs: {
          a: { type: 'object', properties: { inner: { $ref: '#/$defs/leaf' } } },
          leaf: { type: 'string', format: 'uuid' },
        },
        definitions: { b: { type: 'integer' } },
      },
      [
        {
          name: 'other.json',
          schema: {
            type: 'object',
            properties: { x: { type: 'boolean' } },
            $defs: { c: { type: 'number' } },
          },
        },
      ],
    );
    expect(mapped.problems).toEqual([]);
    expect(mapped.columns.map((c) => c.type)).toEqual([
      { data_type: 'object', children: [{ slot: 'field:inner', type: { data_type: 'uuid' } }] },
      { data_type: 'integer' },
      { data_type: 'number' },
      { data_type: 'object', children: [{ slot: 'field:x', type: { data_type: 'boolean' } }] },
    ]);
  });

  test('allOf of objects merges their properties; a recursive $ref is reported once', () => {
    const merged = property({
      allOf: [
        { type: 'object', properties: { a: { type: 'integer' } } },
        { properties: { b: { type: 'string' } } },
      ],
    });
    expect(merged.type).toEqual({
      data_type: 'object',
      children: [
        { slot: 'field:a', type: { data_type: 'integer' } },
        { slot: 'field:b', type: { data_type: 'string' } },
      ],
    });
    const tree = columnsOf({
      type: 'object',
      properties: { root: { $ref: '#/$defs/node' } },
      $defs: {
        node: {
          type: 'object',
          properties: { children: { type: 'array', items: { $ref: '#/$defs/node' } } },
        },
      },
    });
    expect(tree.problems).toEqual([
      { path: 'test.json: root.children[]', reason: expect.stringContaining('recursive $ref') },
    ]);
  });

  test('a top-level $ref to an object gives its properties as columns; a non-object schema is one column', () => {
    expect(
      columnsOf({
        $ref: '#/$defs/r',
        $defs: { r: { type: 'object', properties: { id: { type: 'integer' } } } },
      }).columns.map((c) => c.name),
    ).toEqual(['id']);
    expect(jsonSchemaColumns(doc({ type: 'string' }), 'key').columns.map((c) => [c.name, c.type])).toEqual([
      ['key', { data_type: 'string' }],
    ]);
  });

  test('what cannot be read is a problem, never a crash', () => {
    expect(jsonSchemaColumns({ ...doc({}), text: '{' }, 'value').problems[0].reason).toMatch(
      /^not valid JSON/,
    );
    expect(jsonSchemaColumns(doc([1]), 'value').problems[0].reason).toMatch(/not a JSON Schema/);
    const dangling = jsonSchemaColumns(
      doc({ type: 'object', properties: { a: { $ref: '#/$defs/none' }, b: { type: 'wat' } } }),
      'value',
    );
    expect(dangling.columns.map((c) => c.type)).toEqual([null, null]);
    expect(dangling.problems.map((p) => p.reason)).toEqual([
      "$ref '#/$defs/none' does not resolve",
      'unsupported JSON Schema type "wat"',
    ]);
  });
});
