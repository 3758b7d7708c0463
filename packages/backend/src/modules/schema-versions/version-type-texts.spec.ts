// The per-read cache of type texts answers exactly what rendering each version's columns in order with
// one shared budget answers: the same texts, and the same error where the shared budget runs out.
import { describe, expect, it } from '@jest/globals';
import { renderTypeText } from '../type-instances/type-tree.js';
import { RenderBudget } from '../type-system/render-budget.js';
import type { RenderableTypeNode } from '../type-system/type-tree-renderer.js';
import { VersionTypeTexts } from './version-type-texts.js';

const leaf = (code: string, template: string | null, params: Record<string, unknown> | null = null) => ({
  code,
  render_template: template,
  type_params: params,
  slot: null,
  children: [],
});
const varchar = (length: number) => leaf('varchar', 'varchar({{ length }})', { length });
const array = (item: RenderableTypeNode): RenderableTypeNode => ({
  ...leaf('array', '{{ item }}[]'),
  children: [{ ...item, slot: 'item' }],
});
// About 420,000 characters of comparisons: two fit in one version's budget, three do not.
const heavy = () =>
  leaf('heavy', `${'{% if p == p %}{% endif %}'.repeat(70)}heavy`, { p: 'x'.repeat(3_000) });

/** What the read did before the cache: one budget per version, the columns in order. */
function inOrder(trees: (RenderableTypeNode | null)[]): (string | null)[] {
  const budget = new RenderBudget();
  return trees.map((tree) => (tree === null ? null : renderTypeText(tree, budget)));
}

function outcome(render: () => unknown): unknown {
  try {
    return render();
  } catch (error) {
    return { error: (error as { code?: string }).code, message: (error as Error).message };
  }
}

describe('VersionTypeTexts', () => {
  it('renders each column as its own tree would, equal trees from one rendering', () => {
    const texts = new VersionTypeTexts();
    const version = [varchar(40), null, array(leaf('text', null)), varchar(40), varchar(200)];
    expect(texts.of(version)).toEqual(['varchar(40)', null, 'text[]', 'varchar(40)', 'varchar(200)']);
    expect(texts.of(version)).toEqual(inOrder(version));
    expect(texts.of([array(varchar(3)), array(array(leaf('int', 'int')))])).toEqual([
      'varchar(3)[]',
      'int[][]',
    ]);
  });

  it('keeps one budget per version: costly types fit apart, and fail together where they always failed', () => {
    const texts = new VersionTypeTexts();
    expect(texts.of([heavy(), heavy()])).toEqual(['heavy', 'heavy']);
    expect(texts.of([heavy()])).toEqual(['heavy']);
    const tooCostly = [varchar(1), heavy(), heavy(), heavy()];
    const expected = outcome(() => inOrder(tooCostly));
    expect(expected).toMatchObject({ error: 'TEMPLATE_RENDER_LIMIT' });
    expect(outcome(() => texts.of(tooCostly))).toEqual(expected);
  });

  it('fails on a broken template as the version read always did, after caching it', () => {
    const texts = new VersionTypeTexts();
    const broken = array(leaf('text', null));
    broken.children = [];
    const version = [varchar(1), broken];
    const expected = outcome(() => inOrder(version));
    expect(expected).toMatchObject({ error: 'TYPE_INSTANCE_RENDER_FAILED' });
    expect(outcome(() => texts.of(version))).toEqual(expected);
    expect(outcome(() => texts.of(version))).toEqual(expected);
    expect(texts.of([varchar(1)])).toEqual(['varchar(1)']);
  });
});
