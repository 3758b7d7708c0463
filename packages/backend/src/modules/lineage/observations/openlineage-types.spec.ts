import { describe, expect, it } from '@jest/globals';
import { canonicalCode, observedTypeOf } from './openlineage-types.js';

describe('OpenLineage type names as data types of a flavor', () => {
  it.each([
    // Spark on files (Arrow), on Spark SQL tables, on Iceberg
    ['integer', 'storage_files', { data_type: 'int32' }],
    ['long', 'storage_files', { data_type: 'int64' }],
    ['string', 'storage_files', { data_type: 'utf8' }],
    ['decimal(10,2)', 'storage_files', { data_type: 'decimal', params: { precision: 10, scale: 2 } }],
    ['struct<a:int,b:string>', 'spark_sql', { data_type: 'struct' }],
    ['array<int>', 'iceberg_v2', { data_type: 'list' }],
    ['long', 'iceberg_v2', { data_type: 'long' }],
    ['INTEGER', 'spark_sql', { data_type: 'int' }],
    // Airflow's SQL extractors and Flink on PostgreSQL
    ['int4', 'postgres14', { data_type: 'integer' }],
    ['varchar', 'postgres14', { data_type: 'varchar' }],
    ['VARCHAR(64)', 'postgres14', { data_type: 'varchar', params: { length: 64 } }],
    ['timestamp without time zone', 'postgres14', { data_type: 'timestamp' }],
    ['TEXT', 'postgres14', { data_type: 'text' }],
    ['STRING', 'mysql8', { data_type: 'text' }],
  ])('%s in %s', (text, flavor, type) => {
    expect(observedTypeOf(text, flavor)).toEqual(type);
  });

  it('knows nothing of an unknown name, an empty one, or a flavor without a table', () => {
    expect(observedTypeOf('geography', 'postgres14')).toBeNull();
    expect(observedTypeOf('', 'postgres14')).toBeNull();
    expect(observedTypeOf(null, 'postgres14')).toBeNull();
    expect(observedTypeOf('integer', null)).toBeNull();
    expect(observedTypeOf('integer', 'sqlite3')).toBeNull();
  });

  it("collapses a flavor's alias codes into one type", () => {
    expect(canonicalCode('integer', 'spark_sql')).toBe('int');
    expect(canonicalCode('decimal', 'postgres14')).toBe('numeric');
    expect(canonicalCode('int64', 'storage_files')).toBe('int64');
    expect(canonicalCode('geometry', 'storage_files')).toBeNull();
  });
});
