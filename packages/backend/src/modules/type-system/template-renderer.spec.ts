import { describe, expect, it } from '@jest/globals';
import { buildTemplateContext } from './render-context.js';
import { renderTemplate, TemplateError, validateTemplate } from './template-renderer.js';
import { convertOriginalTemplate } from './original-template.js';
import { renderTypeTree } from './type-tree-renderer.js';

const VARCHAR = 'varchar{% if length is defined %}({{ length }}){% endif %}';
const NUMERIC =
  'numeric{% if precision is defined %}({{ precision }}{% if scale is defined %},{{ scale }}{% endif %}){% endif %}';
const STRUCT =
  'struct<{% for f in fields %}{{ f.name }}:{{ f.type }}{% if not loop.last %},{% endif %}{% endfor %}>';

describe('renderTemplate', () => {
  it('renders an optional parameter only when it is set', () => {
    expect(renderTemplate(VARCHAR, {})).toBe('varchar');
    expect(renderTemplate(VARCHAR, { params: { length: 10 } })).toBe('varchar(10)');
  });

  it('renders nested optional parameters', () => {
    expect(renderTemplate(NUMERIC, { params: { precision: 12, scale: 2 } })).toBe('numeric(12,2)');
    expect(renderTemplate(NUMERIC, { params: { precision: 12 } })).toBe('numeric(12)');
    expect(renderTemplate(NUMERIC, { params: {} })).toBe('numeric');
  });

  it('treats a null param as absent', () => {
    expect(renderTemplate(VARCHAR, { params: { length: null } })).toBe('varchar');
    expect(renderTemplate('{{ params.length is defined }}', { params: { length: null } })).toBe('false');
  });

  it('renders array, list and map children', () => {
    expect(renderTemplate('{{ item }}[]', { children: { item: 'integer' } })).toBe('integer[]');
    expect(renderTemplate('list<{{ element }}>', { children: { element: 'int' } })).toBe('list<int>');
    expect(renderTemplate('map<{{ key }},{{ value }}>', { children: { key: 'string', value: 'long' } })).toBe(
      'map<string,long>',
    );
  });

  it('renders struct fields in order with loop.last', () => {
    const fields = [
      { name: 'a', type: 'int' },
      { name: 'b', type: 'string' },
    ];
    expect(renderTemplate(STRUCT, { fields })).toBe('struct<a:int,b:string>');
    expect(renderTemplate(STRUCT, { fields: [] })).toBe('struct<>');
  });

  it('reads params through `params.` as well as directly', () => {
    expect(renderTemplate('fixed({{ params.length }})', { params: { length: 16 } })).toBe('fixed(16)');
  });

  it('normalises whitespace and trims', () => {
    const template =
      '  timestamp{% if precision is defined %}({{ precision }}){% endif %}\n   with   time zone \n';
    expect(renderTemplate(template, { params: { precision: 3 } })).toBe('timestamp(3) with time zone');
  });

  it('supports the whitelisted filters, tests, comparisons, else/elif and ternaries', () => {
    expect(renderTemplate('{{ name | upper }}', { params: { name: 'x' } })).toBe('X');
    expect(renderTemplate('{{ name | lower | trim }}', { params: { name: ' AB ' } })).toBe('ab');
    expect(renderTemplate('{{ fields | length }}', { fields: [{ name: 'a', type: 'int' }] })).toBe('1');
    expect(renderTemplate("{{ charset | default('utf8') }}", {})).toBe('utf8');
    expect(
      renderTemplate('{% if n > 10 %}big{% elif n == 10 %}ten{% else %}small{% endif %}', {
        params: { n: 10 },
      }),
    ).toBe('ten');
    expect(renderTemplate("{{ 'on' if flag else 'off' }}", { params: { flag: true } })).toBe('on');
    expect(renderTemplate("{{ 'a' ~ name }}", { params: { name: 'b' } })).toBe('ab');
    expect(
      renderTemplate('{% if unsigned is true %} unsigned{% endif %}', { params: { unsigned: true } }),
    ).toBe('unsigned');
  });

  it('caps the output length', () => {
    const fields = Array.from({ length: 200 }, (_, i) => ({ name: `column_${i}`, type: 'varchar(255)' }));
    expect(() => renderTemplate(STRUCT, { fields })).toThrow(/longer than 1000 characters/);
    expect(renderTemplate(STRUCT, { fields }, { maxOutputChars: 10_000 })).toMatch(
      /^struct<column_0:varchar\(255\),/,
    );
  });

  it('rejects context values that are not JSON data', () => {
    expect(() => renderTemplate('{{ x }}', { params: { x: () => 1 } })).toThrow(TemplateError);
    expect(() => renderTemplate('{{ x }}', { params: { x: new Date() } })).toThrow(TemplateError);
    expect(() => renderTemplate('{{ x }}', { params: { x: Number.NaN } })).toThrow(TemplateError);
    expect(() => renderTemplate('{{ x }}', { params: { x: 10n } })).toThrow(TemplateError);
  });

  it('turns a runtime failure into a TemplateError', () => {
    expect(() => renderTemplate('{% if n > 1 %}x{% endif %}', {})).toThrow(TemplateError);
  });
});

describe('validateTemplate', () => {
  it('accepts every example template', () => {
    for (const template of [
      VARCHAR,
      NUMERIC,
      STRUCT,
      '{{ item }}[]',
      'list<{{ element }}>',
      'map<{{ key }},{{ value }}>',
    ]) {
      expect(() => validateTemplate(template)).not.toThrow();
    }
  });

  it('checks variable names against knownVariables when given', () => {
    expect(() => validateTemplate('varchar({{ lenght }})', { knownVariables: ['length'] })).toThrow(
      /unknown variable 'lenght'/,
    );
    expect(() => validateTemplate('fixed({{ params.lenght }})', { knownVariables: ['length'] })).toThrow(
      /unknown parameter 'params.lenght'/,
    );
    expect(() => validateTemplate(STRUCT, { knownVariables: ['fields'] })).not.toThrow();
  });

  it('reports syntax errors as TemplateError', () => {
    expect(() => validateTemplate('{% if x %}unclosed')).toThrow(TemplateError);
    expect(() => validateTemplate('{{ x ')).toThrow(TemplateError);
  });
});

describe('convertOriginalTemplate', () => {
  it('turns the original {param} style into conditional Jinja', () => {
    const numeric = convertOriginalTemplate('numeric({precision},{scale})');
    expect(renderTemplate(numeric, { params: { precision: 12, scale: 2 } })).toBe('numeric(12,2)');
    expect(renderTemplate(numeric, { params: { precision: 12 } })).toBe('numeric(12)');
    expect(renderTemplate(numeric, {})).toBe('numeric');
    const timetz = convertOriginalTemplate('timestamp({precision}) with time zone');
    expect(renderTemplate(timetz, {})).toBe('timestamp with time zone');
    expect(renderTemplate(timetz, { params: { precision: 6 } })).toBe('timestamp(6) with time zone');
  });

  it('leaves Jinja and placeholder-free templates alone', () => {
    expect(convertOriginalTemplate(VARCHAR)).toBe(VARCHAR);
    expect(convertOriginalTemplate('double precision')).toBe('double precision');
  });
});

describe('renderTypeTree', () => {
  const array = (item: Parameters<typeof renderTypeTree>[0]) => ({
    code: 'array',
    render_template: '{{ item }}[]',
    type_params: null,
    slot: null,
    children: [{ ...item, slot: 'item' }],
  });
  const integer = {
    code: 'integer',
    render_template: 'integer',
    type_params: null,
    slot: null,
    children: [],
  };

  it('renders a tree bottom-up', () => {
    expect(renderTypeTree(array(array(integer)))).toBe('integer[][]');
    const struct = {
      code: 'struct',
      render_template: STRUCT,
      type_params: null,
      slot: null,
      children: [
        { code: 'int', render_template: 'int', type_params: null, slot: 'field:a', children: [] },
        {
          code: 'decimal',
          render_template: 'decimal({{ precision }},{{ scale }})',
          type_params: { precision: 12, scale: 2 },
          slot: 'field:b',
          children: [],
        },
      ],
    };
    const list = {
      code: 'list',
      render_template: 'list<{{ element }}>',
      type_params: null,
      slot: null,
      children: [{ ...struct, slot: 'element' }],
    };
    expect(renderTypeTree(list)).toBe('list<struct<a:int,b:decimal(12,2)>>');
  });

  it('renders a type without template as code(params)<children>', () => {
    const original = {
      code: 'array',
      render_template: null,
      type_params: null,
      slot: null,
      children: [{ ...integer, slot: 'item' }],
    };
    expect(renderTypeTree(original)).toBe('array<integer>');
  });

  it('builds contexts from slots', () => {
    const context = buildTemplateContext({ p: 1 }, [
      { slot: 'key', rendered: 'string' },
      { slot: 'field:x', rendered: 'int' },
    ]);
    expect(context.children?.['key']).toBe('string');
    expect(context.fields).toEqual([{ name: 'x', type: 'int' }]);
    expect(() => buildTemplateContext(null, [{ slot: 'other', rendered: 'x' }])).toThrow(TemplateError);
  });
});
