import { describe, expect, it } from '@jest/globals';
import { NameScope, defaultLiteral, pascalCase, snakeCase } from './common.js';

describe('defaultLiteral', () => {
  it.each([
    ['0', { kind: 'number', value: 0, text: '0', integer: true }],
    ['-12.50', { kind: 'number', value: -12.5, text: '-12.50', integer: false }],
    ['((1e3))', { kind: 'number', value: 1000, text: '1e3', integer: false }],
    ["'new'::character varying", { kind: 'string', value: 'new' }],
    ["'it''s'", { kind: 'string', value: "it's" }],
    ["N'x'", { kind: 'string', value: 'x' }],
    ["('a')", { kind: 'string', value: 'a' }],
    ['TRUE', { kind: 'boolean', value: true }],
    ['false', { kind: 'boolean', value: false }],
    ['NULL', { kind: 'null' }],
    ['NULL::text', { kind: 'null' }],
  ])('reads %s as a literal', (text, expected) => {
    expect(defaultLiteral(text)).toEqual(expected);
  });

  it.each([
    'now()',
    "nextval('s'::regclass)",
    'CURRENT_TIMESTAMP',
    "'a' || 'b'",
    '(1) + (2)',
    'uuid_generate_v4()',
  ])('takes %s for an expression', (text) => {
    expect(defaultLiteral(text)).toBeNull();
  });
});

describe('names', () => {
  it('cases names', () => {
    expect(pascalCase('order_lines')).toBe('OrderLines');
    expect(pascalCase('HTTPRequest log')).toBe('HttpRequestLog');
    expect(pascalCase('2024 sales')).toBe('T2024Sales');
    expect(snakeCase('placedAt')).toBe('placed_at');
    expect(snakeCase('Ship To')).toBe('ship_to');
    expect(snakeCase('1st')).toBe('f_1st');
  });

  it('keeps names unique in a scope, case-insensitively', () => {
    const scope = new NameScope();
    expect(['a', 'A', 'a', 'a_2'].map((name) => scope.claim(name))).toEqual(['a', 'A_2', 'a_3', 'a_2_2']);
  });
});
