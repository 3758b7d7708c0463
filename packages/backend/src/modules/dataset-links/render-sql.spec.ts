import { describe, expect, it } from '@jest/globals';
import { dialectType, quoteName, renderableLinks, renderStatement, sourceExpression } from './render-sql.js';

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

describe('render-sql: one direct identity source per column (ADR 0052)', () => {
  const link = (id: string, target: string, transformations: { type: string; subtype?: string }[] = []) => ({
    fieldLinkId: id,
    targetFieldId: target,
    targetColumn: target,
    transformations,
  });

  it('renders a copy, leaves INDIRECT-only links out silently, names several or derived sources', () => {
    const warnings: Parameters<typeof renderableLinks>[1] = [];
    const rendered = renderableLinks(
      [
        link('1', 'id'),
        link('2', 'name', [{ type: 'DIRECT', subtype: 'IDENTITY' }]),
        link('3', 'name', [{ type: 'INDIRECT', subtype: 'FILTER' }]),
        link('4', 'agg', [{ type: 'DIRECT', subtype: 'AGGREGATION' }]),
        link('5', 'agg', [{ type: 'DIRECT', subtype: 'AGGREGATION' }]),
        link('6', 'upper', [
          { type: 'DIRECT', subtype: 'IDENTITY' },
          { type: 'DIRECT', subtype: 'TRANSFORMATION' },
        ]),
      ],
      warnings,
    );
    expect([...rendered].sort()).toEqual(['1', '2']);
    expect(warnings.map((w) => [w.code, w.field_link_id, w.field_name])).toEqual([
      ['FIELD_NOT_RENDERABLE', '4', 'agg'],
      ['FIELD_NOT_RENDERABLE', '5', 'agg'],
      ['FIELD_NOT_RENDERABLE', '6', 'upper'],
    ]);
    expect(warnings[2].detail).toContain('TRANSFORMATION');
  });
});
