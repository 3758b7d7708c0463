import type { RenderableTypeNode } from '../type-system/type-tree-renderer.js';
import { renderColumnTypes, renderTypeText } from '../type-instances/type-tree.js';
import { RenderBudget } from '../type-system/render-budget.js';
import { MAX_RENDER_CHARS, MAX_RENDER_STEPS } from '../type-system/template-limits.js';

/** A budget that records the most characters it was ever asked to hold (charged plus reserved). */
class MeasuredBudget extends RenderBudget {
  peakChars = 0;

  override reserve(count: number): void {
    super.reserve(count);
    this.peakChars = Math.max(this.peakChars, this.chars + count);
  }
}

/** One distinct type rendered alone: its text and what it cost, or null when rendering it failed. */
interface Rendered {
  text: string;
  steps: number;
  peakChars: number;
  chars: number;
}

/** What a rendering reads of a tree: codes, templates, params and children by slot (never ids). */
function renderInput(node: RenderableTypeNode): unknown {
  return [
    node.code,
    node.render_template,
    node.type_params,
    node.children.map((child) => [child.slot, renderInput(child)]),
  ];
}

/**
 * The type texts of versions' columns, each distinct type rendered once per read: a page of 1,000
 * tables of 20 columns renders its 20 distinct types, not 20,000 trees.
 *
 * The answer is exactly what rendering each version's columns in order with one shared budget gives
 * (ADR 0005): a rendering depends only on its tree, and a budget fails only when what it has counted
 * passes its limits, which never fall below the base limits. So when the costs of a version's types,
 * each measured alone, add up within the base limits at every column, the shared budget could not
 * have failed and the cached texts are the answer. Otherwise (a failed type, or a version too costly
 * to tell) the version is rendered the way it always was, and fails the same way.
 */
export class VersionTypeTexts {
  private readonly byInput = new Map<string, Rendered | null>();

  of(trees: readonly (RenderableTypeNode | null)[]): (string | null)[] {
    const texts: (string | null)[] = [];
    let steps = 0;
    let chars = 0;
    for (const tree of trees) {
      if (tree === null) {
        texts.push(null);
        continue;
      }
      const rendered = this.rendered(tree);
      if (
        rendered === null ||
        steps + rendered.steps > MAX_RENDER_STEPS ||
        chars + rendered.peakChars > MAX_RENDER_CHARS
      ) {
        return renderColumnTypes(trees);
      }
      steps += rendered.steps;
      chars += rendered.chars;
      texts.push(rendered.text);
    }
    return texts;
  }

  private rendered(tree: RenderableTypeNode): Rendered | null {
    // Most trees are one node: a flat key spares building and serialising their render input. Its
    // parts hold no NUL (database text; JSON escapes it), so NUL separates them unambiguously.
    const key =
      tree.children.length === 0
        ? `L${JSON.stringify(tree.render_template)}\u0000${tree.code}\u0000${JSON.stringify(tree.type_params)}`
        : `T${JSON.stringify(renderInput(tree))}`;
    let rendered = this.byInput.get(key);
    if (rendered === undefined) {
      const budget = new MeasuredBudget();
      try {
        const text = renderTypeText(tree, budget);
        rendered = { text, steps: budget.steps, peakChars: budget.peakChars, chars: budget.chars };
      } catch {
        rendered = null;
      }
      this.byInput.set(key, rendered);
    }
    return rendered;
  }
}
