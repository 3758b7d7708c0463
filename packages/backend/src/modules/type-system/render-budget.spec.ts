// The render budget is enforced while a template runs: every case here would take seconds (or exhaust
// memory) without it. The assertions are on the budget's counters, never on wall time.
import { describe, expect, it } from '@jest/globals';
import { RenderBudget } from './render-budget.js';
import { TemplateLimitError } from './template-error.js';
import { MAX_RENDER_CHARS, MAX_RENDER_STEPS, RENDER_STEPS_PER_NODE } from './template-limits.js';
import { renderTemplate, type TemplateContext } from './template-renderer.js';
import { type RenderableTypeNode, renderTypeTree } from './type-tree-renderer.js';

const STRUCT =
  'struct<{% for f in fields %}{{ f.name }}:{{ f.type }}{% if not loop.last %},{% endif %}{% endfor %}>';
const LONG = 'x'.repeat(3_000);
const fields = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ name: `c${i % 100}`, type: 'int' }));
const inLoop = (body: string, times: number) => `{% for f in fields %}${body.repeat(times)}{% endfor %}`;

/** Renders with a fresh budget; returns the error and the budget's counters. */
function exhaust(template: string, context: TemplateContext): { error: unknown; budget: RenderBudget } {
  const budget = new RenderBudget();
  try {
    renderTemplate(template, context, { budget, maxOutputChars: Number.MAX_SAFE_INTEGER });
  } catch (error) {
    return { error, budget };
  }
  throw new Error('the render finished within its budget');
}

describe('render budget', () => {
  it('stops the reported quadratic join (a param as its own separator) before building it', () => {
    // The reproduction: 50 `p|join(p)` per field, a 3,000-character p, 10 fields. Unbounded,
    // each join builds 9 million characters and the render blocks the event loop for about 20 s.
    const template = inLoop('{% if p|join(p) == "x" %}{% endif %}', 50);
    expect(template.length).toBeLessThanOrEqual(2_000);
    const { error, budget } = exhaust(template, { params: { p: LONG }, fields: fields(10) });
    expect(error).toBeInstanceOf(TemplateLimitError);
    expect((error as Error).message).toBe(
      `rendering produces more than ${MAX_RENDER_CHARS} characters of text`,
    );
    // Refused at the first join, before its 9-million-character result was allocated.
    expect(budget.chars).toBe(0);
    expect(budget.steps).toBeLessThan(100);
  });

  it.each<[string, string, TemplateContext]>([
    ['nested joins', '{{ p|join(p)|join(p) }}', { params: { p: 'ab'.repeat(600) } }],
    [
      'joining the fields with a long separator',
      inLoop('{{ fields|join(p) }}', 1),
      { params: { p: LONG }, fields: fields(900) },
    ],
    [
      'string concatenation in a loop',
      inLoop('{% if (p ~ p ~ p ~ p) == "x" %}{% endif %}', 40),
      { params: { p: LONG }, fields: fields(900) },
    ],
    [
      'long comparisons in a loop',
      inLoop('{% if p == q %}{% endif %}', 70),
      { params: { p: LONG, q: `${LONG}y` }, fields: fields(900) },
    ],
    [
      'case filters in a loop',
      inLoop('{% if p|upper|lower == "x" %}{% endif %}', 40),
      { params: { p: LONG }, fields: fields(900) },
    ],
    ['literal text in a loop', inLoop('y'.repeat(1_900), 1), { fields: fields(1_000) }],
    ['printing a list in a loop', inLoop('{{ fields }}', 1), { fields: fields(1_000) }],
    [
      'concatenating a list in a loop',
      inLoop('{% if (fields ~ fields) == "x" %}{% endif %}', 1),
      { fields: fields(1_000) },
    ],
  ])('stops %s on characters produced', (_name, template, context) => {
    const { error, budget } = exhaust(template, context);
    expect(error).toBeInstanceOf(TemplateLimitError);
    expect((error as Error).message).toMatch(/characters of text/);
    expect(budget.chars).toBeLessThanOrEqual(budget.maxChars);
    expect(budget.steps).toBeLessThanOrEqual(budget.maxSteps);
  });

  it.each<[string, string, TemplateContext]>([
    ['many expressions in a loop', inLoop('{{ a }}', 280), { params: { a: 1 }, fields: fields(1_000) }],
    [
      'many empty conditions in a loop',
      inLoop('{% if a %}{% endif %}', 90),
      { params: { a: 1 }, fields: fields(1_000) },
    ],
  ])('stops %s on evaluation steps', (_name, template, context) => {
    const { error, budget } = exhaust(template, context);
    expect(error).toBeInstanceOf(TemplateLimitError);
    expect((error as Error).message).toBe(`rendering needs more than ${MAX_RENDER_STEPS} evaluation steps`);
    // Stopped within one block of the limit (a block's statements are counted together).
    expect(budget.steps).toBeGreaterThan(MAX_RENDER_STEPS);
    expect(budget.steps).toBeLessThan(MAX_RENDER_STEPS + 300);
  });

  it('leaves room for a 1,000-member struct, and counts its work', () => {
    const budget = new RenderBudget();
    const rendered = renderTemplate(STRUCT, { fields: fields(1_000) }, { budget, maxOutputChars: 100_000 });
    expect(rendered).toMatch(/^struct<c0:int,c1:int,.*,c99:int>$/);
    expect(budget.steps).toBeGreaterThan(1_000);
    expect(budget.steps).toBeLessThan(MAX_RENDER_STEPS / 4);
    expect(budget.chars).toBeGreaterThanOrEqual(rendered.length);
  });

  describe('in a type tree', () => {
    // Each member alone stays within a fresh budget; 300 of them share one.
    const costly: RenderableTypeNode = {
      code: 'costly',
      render_template: `{% if (p ~ p ~ p ~ p) == "x" %}{% endif %}${'{% if p == q %}{% endif %}'.repeat(60)}c`,
      type_params: { p: 'x'.repeat(1_000), q: 'y'.repeat(1_000) },
      slot: null,
      children: [],
    };
    const struct = (members: RenderableTypeNode[]): RenderableTypeNode => ({
      code: 'struct',
      render_template: STRUCT,
      type_params: null,
      slot: null,
      children: members,
    });
    const member = (node: RenderableTypeNode, i: number) => ({ ...node, slot: `field:m${i}` });

    it('shares one budget between its nodes, so that width cannot multiply it', () => {
      const alone = new RenderBudget();
      expect(renderTypeTree(costly, { budget: alone })).toBe('c');
      expect(alone.chars).toBeGreaterThan(60_000);

      const budget = new RenderBudget();
      const wide = struct(Array.from({ length: 300 }, (_, i) => member(costly, i)));
      expect(() => renderTypeTree(wide, { budget, maxOutputChars: 100_000 })).toThrow(TemplateLimitError);
      expect(budget.chars).toBeLessThanOrEqual(budget.maxChars);
    });

    it('grants each node a small allowance, so that large plain trees render', () => {
      const leaf: RenderableTypeNode = {
        code: 'int',
        render_template: 'int',
        type_params: null,
        slot: null,
        children: [],
      };
      const budget = new RenderBudget(100, 1_000);
      const rendered = renderTypeTree(struct(Array.from({ length: 1_000 }, (_, i) => member(leaf, i))), {
        budget,
        maxOutputChars: 100_000,
      });
      expect(rendered).toMatch(/^struct<m0:int,.*,m999:int>$/);
      expect(budget.maxSteps).toBe(100 + 1_001 * RENDER_STEPS_PER_NODE);
      expect(budget.steps).toBeGreaterThan(1_000);
    });
  });
});
