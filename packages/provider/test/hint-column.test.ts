// A DataCoolie hint's number goes to the param its data type has: `varchar(20)` is a length, not a
// precision (the importer used to publish {precision: 20}, which the registry refuses for a varchar),
// `decimal(18,2)` a precision and scale. The params schemas are the seeded ones, in both their forms.
import { describe, expect, it } from '@jest/globals';
import type { DataType } from '@aide/schemas';
import { hintColumn } from '../src/aide/hint-column.js';

const type = (code: string, params_schema: Record<string, unknown>) => ({ code, params_schema }) as DataType;
// spark_sql.yaml (JSON Schema) and postgres14.yaml (the original rule format).
const SPARK = [
  type('varchar', { type: 'object', properties: { length: { type: 'integer' } }, required: ['length'] }),
  type('char', { type: 'object', properties: { length: { type: 'integer' } } }),
  type('decimal', { type: 'object', properties: { precision: {}, scale: {} } }),
  type('integer', {}),
];
const POSTGRES = [type('varchar', { length: { type: 'int', required: false } }), type('numeric', {})];

describe('hintColumn', () => {
  it('puts the number of varchar(n) and char(n) in length', () => {
    expect(hintColumn({ column_name: 'code', data_type: 'VARCHAR(20)' } as never, SPARK)).toEqual({
      name: 'code',
      type: { data_type: 'varchar', params: { length: 20 } },
    });
    expect(hintColumn({ column_name: 'cc', data_type: 'char(3)' } as never, SPARK)).toMatchObject({
      type: { data_type: 'char', params: { length: 3 } },
    });
    expect(
      hintColumn({ column_name: 'n', data_type: 'varchar', precision: 40 } as never, POSTGRES),
    ).toMatchObject({ type: { data_type: 'varchar', params: { length: 40 } } });
  });

  it('keeps precision and scale for decimals, no params for plain types', () => {
    expect(hintColumn({ column_name: 'amount', data_type: 'DECIMAL(18,2)' } as never, SPARK)).toMatchObject({
      type: { data_type: 'decimal', params: { precision: 18, scale: 2 } },
    });
    expect(hintColumn({ column_name: 'id', data_type: 'INTEGER' } as never, SPARK)).toEqual({
      name: 'id',
      type: { data_type: 'integer' },
    });
  });

  it('refuses a scale on a length type and an unknown code, with a reason', () => {
    expect(hintColumn({ column_name: 'x', data_type: 'varchar(10,2)' } as never, SPARK)).toContain(
      'not a scale',
    );
    expect(hintColumn({ column_name: 'x', data_type: 'no_such' } as never, SPARK)).toContain("'no_such'");
  });
});
