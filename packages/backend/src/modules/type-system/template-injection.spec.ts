import { describe, expect, it } from '@jest/globals';
import { RenderBudget } from './render-budget.js';
import { renderTemplate, TemplateError, validateTemplate } from './template-renderer.js';

const PWNED = '__aideTemplatePwned';
const marker = globalThis as Record<string, unknown>;

const nestedIfs = (levels: number) => '{% if a %}'.repeat(levels) + 'x' + '{% endif %}'.repeat(levels);

/** Payloads from Jinja SSTI write-ups, adapted to @huggingface/jinja, plus resource-exhaustion attempts. */
const PAYLOADS: Array<[string, string, RegExp]> = [
  ['dunder attribute on a string', "{{ ''.__class__ }}", /attribute/],
  [
    'constructor chain to Function',
    `{{ ''.constructor.constructor('globalThis.${PWNED} = true')() }}`,
    /constructor|calls/,
  ],
  ['prototype through a variable', '{{ x.constructor.prototype }}', /constructor|attribute/],
  ['cycler globals', '{{ cycler.__init__.__globals__ }}', /attribute|cycler/],
  ['joiner as a call', '{{ joiner() }}', /calls/],
  ['joiner as a value', '{{ joiner }}', /joiner/],
  ['range with a huge power', '{% for i in range(10**9) %}x{% endfor %}', /fields|calls|operator/],
  ['string multiplication', "{{ 'a' * 100000000 }}", /operator '\*'/],
  ['power tower', '{{ 9 ** 9 ** 9 }}', /operator '\*\*'/],
  ['1,000 nested ifs', nestedIfs(1_000), /longer than 2000|deeper/],
  ['21 nested ifs (short enough)', nestedIfs(21), /deeper than 20/],
  ['recursive macro', '{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}', /macro/],
  ['namespace()', '{{ namespace() }}', /calls/],
  ['namespace as a value', '{{ namespace }}', /namespace/],
  ['set', "{% set x = 'a' %}{{ x }}", /set/],
  ['block set', '{% set x %}a{% endset %}', /set/],
  ['include', "{% include 'x' %}", /include/],
  ['import', "{% import 'x' as y %}", /import/],
  ['extends', "{% extends 'base.html' %}", /extends/],
  ['call block', '{% call m() %}x{% endcall %}', /call/],
  ['filter block', '{% filter upper %}x{% endfilter %}', /filter/],
  ['self', '{{ self }}', /self/],
  ['lipsum', '{{ lipsum }}', /lipsum/],
  ['config', '{{ config }}', /config/],
  ['request', '{{ request }}', /request/],
  ['params.__proto__', '{{ params.__proto__ }}', /__proto__/],
  ['params.constructor', '{{ params.constructor }}', /constructor/],
  ['subscript to __proto__', "{{ params['__proto__'] }}", /subscripts/],
  ['subscript to constructor', "{{ params['constructor'] }}", /subscripts/],
  ['a method read without a call (would print JS source)', '{{ name.upper }}', /attribute access on 'name'/],
  ['a method call', '{{ name.upper() }}', /calls/],
  ['params.items', '{{ params.items }}', /items/],
  ['raise_exception', "{{ raise_exception('x') }}", /calls/],
  ['strftime_now', "{{ strftime_now('%Y') }}", /calls/],
  ['range as a value', '{{ range }}', /range/],
  ['a loop over something other than fields', '{% for c in "abc" %}{{ c }}{% endfor %}', /fields/],
  [
    'nested loops (quadratic)',
    '{% for f in fields %}{% for g in fields %}x{% endfor %}{% endfor %}',
    /nested/,
  ],
  ['loop outside a loop', '{{ loop.index }}', /loop/],
  ['map filter', "{{ fields | map(attribute='name') | join(',') }}", /filter 'map'/],
  ['tojson filter', '{{ params | tojson }}', /filter 'tojson'/],
  ['list literal', '{{ [1, 2, 3] }}', /list literals/],
  ['dict literal', "{{ {'a': 1} }}", /dict literals|syntax/],
  ['slice', '{{ name[::-1] }}', /subscripts/],
  ['deep parentheses', '{{ ' + '('.repeat(500) + 'x' + ')'.repeat(500) + ' }}', /brackets/],
  ['deep not chain', '{{ ' + 'not '.repeat(400) + 'x }}', /nested deeper/],
  ['a 2,000-character concatenation chain', '{{ ' + 'a ~ '.repeat(495) + 'a }}', /nested deeper/],
  ['1,000 unclosed expressions', '{{'.repeat(1_000), /syntax error/],
  ['underscore name', '{{ _x }}', /names must start with a letter/],
  ['template over 2,000 characters', 'x'.repeat(2_001), /longer than 2000/],
  ['break', '{% for f in fields %}{% break %}{% endfor %}', /break/],
  ['unary minus on a variable', '{{ -x }}', /operator '-'/],
  ['arithmetic', '{{ x + 1 }}', /operator '\+'/],
];

describe('template sandbox', () => {
  // Refused by the validator, before a single render step: none of these can cost time or memory
  // (the render budget's counters stay at zero; render-budget.spec.ts covers what gets past it).
  it.each(PAYLOADS)('rejects %s before rendering any of it', (_label, template, message) => {
    marker[PWNED] = false;
    let error: unknown;
    try {
      validateTemplate(template);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(TemplateError);
    expect((error as Error).message).toMatch(message);
    const budget = new RenderBudget();
    expect(() => renderTemplate(template, { params: { x: 'v', name: 'v' } }, { budget })).toThrow(
      TemplateError,
    );
    expect({ steps: budget.steps, chars: budget.chars }).toEqual({ steps: 0, chars: 0 });
    expect(marker[PWNED]).toBe(false);
  });

  it('has at least ten payloads', () => {
    expect(PAYLOADS.length).toBeGreaterThanOrEqual(10);
  });

  it('never exposes prototypes through data, even with a __proto__ key in params', () => {
    const params = JSON.parse('{"__proto__": {"polluted": "yes"}, "length": 3}') as Record<string, unknown>;
    expect(renderTemplate('varchar({{ length }}){{ polluted }}', { params })).toBe('varchar(3)');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('sees no interpreter globals in the render environment', () => {
    // Names are not rejected up front unless they are known globals; at render time they are undefined.
    expect(renderTemplate('{{ anything is defined }}')).toBe('false');
  });
});
