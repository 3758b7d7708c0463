import { describe, expect, it } from '@jest/globals';
import { dialectType, quoteName, renderStatement, sourceExpression } from './render-sql.js';

describe('render-sql dialects', () => {
  it.each([
    ['long', 'bigint', 'BIGINT'],
    ['int', 'int', 'INT'],
    ['decimal(12,2)', 'decimal(12,2)', 'DECIMAL(12,2)'],
    ['numeric(18, 4)', 'numeric(18, 4)', 'DECIMAL(18,4)'],
    ['timestamptz', 'timestamp', 'TIMESTAMP'],
    ['uuid', 'string', 'STRING'],
    ['fixed(16)', 'binary', 'BINARY'],
    ['list<long>', 'array<bigint>', null],
    ['map<string,long>', 'map<string,bigint>', null],
    ['struct<long:string,time:long>', 'struct<long:string,time:bigint>', null],
  ])('%s is %s in Spark and %s in Impala', (text, spark, impala) => {
    expect(dialectType('spark', text)).toBe(spark);
    expect(dialectType('impala', text)).toBe(impala);
  });

  it('quotes identifiers and reads envelopes', () => {
    expect(quoteName('a`b', 'c')).toBe('`a``b`.`c`');
    expect(sourceExpression({ afterPath: null, json: false }, 'id')).toBe('`id`');
    expect(sourceExpression({ afterPath: ['payload', 'after'], json: false }, 'id')).toBe(
      '`payload`.`payload`.`after`.`id`',
    );
    expect(sourceExpression({ afterPath: ['after'], json: true }, "o'k")).toBe(
      "get_json_object(`payload`, '$.after.o''k')",
    );
  });

  it('selects * when no projection can be written', () => {
    const warnings: never[] = [];
    expect(renderStatement('spark', '`t`', '`s`', { afterPath: null, json: false }, [], warnings)).toBe(
      'INSERT INTO `t`\nSELECT\n  *\nFROM `s`;',
    );
  });
});
