import { describe, expect, it } from '@jest/globals';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Omissions } from '../translated-table.js';
import { renderJsonSchema } from './json-schema.js';
import { col, t, table } from './spec-helpers.js';

const orders = table(
  [
    col('id', t('integer'), { nullable: false, comment: 'The order id' }),
    col('amount', t('number'), { nullable: false, default: '0.00' }),
    col('placed_at', t('date_time'), { nullable: false, default: 'CURRENT_TIMESTAMP' }),
    col('status', t('string', { max_length: 10 }), { nullable: false, default: "'new'" }),
    col('note', t('string'), { default: 'NULL' }),
    col('ref', t('uuid')),
    col('born', t('date'), { default: "'2020-01-02'" }),
    col('kind', t('enum', { symbols: '"web","store"' })),
    col('payload', t('bytes')),
    col(
      'address',
      t('object', {}, [
        ['field:street', t('string'), false],
        ['field:zip', t('string'), true],
      ]),
      { nullable: false },
    ),
    col('tags', t('array', {}, [['element', t('string'), false]])),
    col(
      'by_day',
      t('map', {}, [
        ['key', t('integer'), false],
        ['value', t('number'), true],
      ]),
    ),
    col('extra', t('any')),
    col(
      'either',
      t('one_of', {}, [
        ['field:s', t('string'), false],
        ['field:n', t('integer'), false],
      ]),
    ),
    col('geom', null, { source_type: 'geometry' }),
  ],
  { comment: 'Orders placed', unique_constraints: [{ name: null, columns: ['ref'] }] },
);

function ajv(): Ajv2020 {
  const validator = new Ajv2020({ strict: true, allErrors: true });
  validator.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
  validator.addFormat('date', /^\d{4}-\d{2}-\d{2}$/);
  validator.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  return validator;
}

const sample = {
  id: 1,
  amount: 12.5,
  placed_at: '2024-05-01T10:00:00Z',
  status: 'new',
  note: null,
  ref: '0f8fad5b-d9cb-466f-a0d1-4b1c5b8a0f2c',
  born: null,
  kind: 'web',
  payload: 'AAE=',
  address: { street: 'Main', zip: null },
  tags: ['a'],
  by_day: { '1': 2.5, '2': null },
  extra: { any: ['thing'] },
  either: 3,
};

describe('renderJsonSchema', () => {
  const omissions = new Omissions();
  const text = renderJsonSchema(orders, omissions);
  const schema = JSON.parse(text) as Record<string, unknown>;

  it('is a valid 2020-12 schema (meta-schema, strict compile)', () => {
    const validator = ajv();
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(validator.validateSchema(schema)).toBe(true);
    expect(() => validator.compile(schema)).not.toThrow();
  });

  it('lists properties in column order, required = the NOT NULL columns', () => {
    expect(Object.keys(schema.properties as object)).toEqual([
      'id',
      'amount',
      'placed_at',
      'status',
      'note',
      'ref',
      'born',
      'kind',
      'payload',
      'address',
      'tags',
      'by_day',
      'extra',
      'either',
    ]);
    expect(schema.required).toEqual(['id', 'amount', 'placed_at', 'status', 'address']);
    expect(schema.description).toBe('Orders placed');
    const properties = schema.properties as Record<string, unknown>;
    expect(properties.id).toEqual({ description: 'The order id', type: 'integer' });
    expect(properties.note).toEqual({ type: ['string', 'null'], default: null });
    expect(properties.born).toEqual({ type: ['string', 'null'], format: 'date', default: '2020-01-02' });
    expect(properties.kind).toEqual({ enum: ['web', 'store', null] });
    expect(properties.either).toEqual({ oneOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }] });
    expect(properties.address).toEqual({
      type: 'object',
      properties: { street: { type: 'string' }, zip: { type: ['string', 'null'] } },
      required: ['street'],
      additionalProperties: false,
    });
  });

  it('accepts a sample row and rejects broken ones', () => {
    const validate = ajv().compile(schema);
    expect(validate(sample)).toBe(true);
    expect(validate({ ...sample, id: null })).toBe(false);
    expect(validate({ ...sample, status: 'x'.repeat(11) })).toBe(false);
    expect(validate({ ...sample, placed_at: 'yesterday' })).toBe(false);
    expect(validate({ ...sample, address: { zip: '1' } })).toBe(false);
    expect(validate({ ...sample, tags: [null] })).toBe(false);
    expect(validate({ ...sample, unknown: 1 })).toBe(false);
    const { address: _address, ...withoutAddress } = sample;
    expect(validate(withoutAddress)).toBe(false);
  });

  it('reports what JSON Schema cannot carry', () => {
    expect(omissions.items).toEqual([
      { kind: 'default', path: 'placed_at', reason: expect.stringContaining('CURRENT_TIMESTAMP') },
      { kind: 'column', path: 'by_day{key}', reason: expect.stringContaining('integer keys') },
      { kind: 'column', path: 'geom', reason: expect.stringContaining('geometry has no cast') },
      { kind: 'unique', path: 'ref', reason: expect.any(String) },
    ]);
  });

  it('is deterministic', () => {
    expect(renderJsonSchema(orders, new Omissions())).toBe(text);
  });
});
