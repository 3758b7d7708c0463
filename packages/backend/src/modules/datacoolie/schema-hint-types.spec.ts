import { describe, expect, it } from '@jest/globals';
import { databaseFamilyOf } from '@aide/schemas/datacoolie';
import { flavorDialect, hintTypeOf, hintTypeSystem } from './schema-hint-types.js';

// One flavor → database-family mapping (`databaseFamilyOf`): the export's `database_type` and the hints'
// source dialect agree. They disagreed on SQL Server: the export said mssql, the hints read its columns
// as Spark SQL, so a `bit` or `datetime2` column of a SQL Server system got no hint.
describe('flavor families', () => {
  it.each([
    ['postgres14', 'postgresql'],
    ['MariaDB10', 'mysql'],
    ['sqlite3', 'sqlite'],
    ['mssql2019', 'mssql'],
    ['sqlserver2022', 'mssql'],
    ['oracle19', 'oracle'],
    ['iceberg_v2', null],
  ])('%s is of the %s family', (flavor, family) => {
    expect(databaseFamilyOf(flavor)).toBe(family);
  });

  it('reads a SQL Server flavor in the dialect its export names', () => {
    const system = hintTypeSystem({ database_type: databaseFamilyOf('sqlserver2019') });
    expect(system).toBe('mssql');
    expect(flavorDialect('sqlserver2019')).toBe('mssql');
    const hint = (code: string) => hintTypeOf(flavorDialect('sqlserver2019'), code, null, system);
    expect(hint('bit')).toEqual({ data_type: 'bit', precision: null, scale: null });
    expect(hint('datetime2')).toEqual({ data_type: 'datetime2', precision: null, scale: null });
    expect(hint('nvarchar')).toEqual({ data_type: 'nvarchar', precision: null, scale: null });
  });

  it('keeps the length of a bounded string written in its own dialect (issue 24)', () => {
    expect(hintTypeOf('spark_sql', 'varchar', { length: 20 }, 'spark_sql')).toEqual({
      data_type: 'varchar(20)',
      precision: null,
      scale: null,
    });
    // Written in another dialect, the string type has no length.
    expect(hintTypeOf('postgresql', 'varchar', { length: 20 }, 'spark_sql')?.data_type).toBe('string');
  });

  it('keeps lake flavors and families without a code table on Spark SQL', () => {
    expect(flavorDialect('iceberg_v2')).toBe('spark_sql');
    expect(flavorDialect('oracle19')).toBe('spark_sql');
  });
});
