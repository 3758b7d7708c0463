import { describe, expect, it } from '@jest/globals';
import { createSchemaHint } from '@aide/schemas/datacoolie';
import { hintFlavorOf, hintTypeSystemOf, mapHintType } from './hint-types.js';
import { objectChanges } from './plan-changes.js';

const types = [
  { id: 'dec', code: 'decimal', params_schema: { properties: { precision: {}, scale: {} } } },
  { id: 'vc', code: 'varchar', params_schema: { properties: { length: {} } } },
  { id: 'int', code: 'integer', params_schema: {} },
];
const hint = (data_type: string, extra: Record<string, unknown> = {}) =>
  createSchemaHint({ column_name: 'c', data_type, ...extra });

describe('hint types', () => {
  it('maps codes case-insensitively, parsing name(p[,s]) as precision/scale or length', () => {
    expect(mapHintType(hint('DECIMAL(18, 2)'), types)).toEqual({
      data_type_id: 'dec',
      type_params: { precision: 18, scale: 2 },
    });
    expect(mapHintType(hint('Decimal', { precision: 10 }), types)).toEqual({
      data_type_id: 'dec',
      type_params: { precision: 10 },
    });
    expect(mapHintType(hint('varchar(20)'), types)).toEqual({
      data_type_id: 'vc',
      type_params: { length: 20 },
    });
    expect(mapHintType(hint('INTEGER'), types)).toEqual({ data_type_id: 'int', type_params: null });
    expect(mapHintType(hint('varchar(20,2)'), types)).toBe(
      "data type 'varchar(20,2)' takes a length, not a scale",
    );
    expect(mapHintType(hint('money'), types)).toBe(
      "data type 'money' is not a data type of the type system's flavor",
    );
  });

  it('reads the type system as DataCoolie does and maps it to a seeded flavor', () => {
    expect(hintFlavorOf(hintTypeSystemOf({}))).toBe('spark_sql');
    expect(hintFlavorOf(hintTypeSystemOf({ database_type: 'postgresql' }))).toBe('postgres14');
    expect(hintFlavorOf(hintTypeSystemOf({ database_type: 'mysql', schema_hint_type_system: 'Spark' }))).toBe(
      'spark_sql',
    );
    expect(hintFlavorOf(hintTypeSystemOf({ schema_hint_type_system: 'MariaDB' }))).toBe('mysql8');
    expect(hintFlavorOf(hintTypeSystemOf({ database_type: 'sqlite' }))).toBe('sqlite3');
    expect(hintFlavorOf(hintTypeSystemOf({ database_type: 'mssql' }))).toBeNull();
    expect(hintFlavorOf(hintTypeSystemOf({ database_type: 'oracle' }))).toBeNull();
  });
});

describe('object changes', () => {
  it('lists one change per key added, removed or changed', () => {
    expect(objectChanges('configure', { a: 1, b: 2 }, { a: 1, b: 3, c: null })).toEqual([
      { field: 'configure.b', before: 2, after: 3 },
      { field: 'configure.c', before: null, after: null },
    ]);
    expect(objectChanges('configure', { a: 1, b: 2 }, { a: 1 })).toEqual([
      { field: 'configure.b', before: 2, after: null },
    ]);
  });

  it('reports a new key order as one change of the object (served back as written)', () => {
    expect(objectChanges('configure', { a: 1, b: 2 }, { b: 2, a: 1 })).toEqual([
      { field: 'configure', before: ['a', 'b'], after: ['b', 'a'] },
    ]);
    expect(objectChanges('configure', { a: { x: 1 } }, { a: { x: 1 } })).toEqual([]);
  });
});
