import { buildTemplateContext } from './render-context.js';
import { TemplateError } from './template-error.js';
import { MAX_OUTPUT_CHARS } from './template-limits.js';
import { renderTemplate, type RenderOptions } from './template-renderer.js';

/** A type-instance tree node joined with its data type, as needed to render it. */
export interface RenderableTypeNode {
  code: string;
  render_template: string | null;
  type_params: Record<string, unknown> | null;
  slot: string | null;
  children: readonly RenderableTypeNode[];
}

/** Deepest type-instance tree rendered (`array<array<...>>`). */
export const MAX_TREE_DEPTH = 32;

/**
 * Renders a whole type-instance tree bottom-up: each node's template gets its params and its
 * children's rendered text (`item`, `element`, `key`, `value`, and `field:<name>` as `fields`).
 * A data type without a template (the original's composite types) renders as its code, its param
 * values in parentheses and its children in angle brackets: `array<integer>`, `numeric(12,2)`.
 *
 * @throws TemplateError when a template fails, the tree is too deep, or an output is too long.
 */
export function renderTypeTree(node: RenderableTypeNode, options: RenderOptions = {}): string {
  return renderNode(node, options, 0);
}

function renderNode(node: RenderableTypeNode, options: RenderOptions, depth: number): string {
  if (depth >= MAX_TREE_DEPTH) {
    throw new TemplateError(`type tree is deeper than ${MAX_TREE_DEPTH} levels`);
  }
  const children = node.children.map((child) => {
    if (child.slot === null) {
      throw new TemplateError(`a child of '${node.code}' has no slot`);
    }
    return { slot: child.slot, rendered: renderNode(child, options, depth + 1) };
  });
  if (node.render_template !== null) checkSlots(node.code, node.render_template, children);
  if (node.render_template === null) {
    const rendered = renderWithoutTemplate(
      node.code,
      node.type_params,
      children.map((child) => child.rendered),
    );
    const maxOutputChars = options.maxOutputChars ?? MAX_OUTPUT_CHARS;
    if (rendered.length > maxOutputChars) {
      throw new TemplateError(`rendered type is longer than ${maxOutputChars} characters`);
    }
    return rendered;
  }
  return renderTemplate(node.render_template, buildTemplateContext(node.type_params, children), options);
}

function renderWithoutTemplate(
  code: string,
  params: Record<string, unknown> | null,
  children: string[],
): string {
  const values = Object.values(params ?? {}).filter((value) => value !== null && value !== undefined);
  const withParams = values.length > 0 ? `${code}(${values.map(String).join(',')})` : code;
  return children.length > 0 ? `${withParams}<${children.join(',')}>` : withParams;
}

const CHILD_SLOT_NAMES = ['item', 'element', 'key', 'value'] as const;
// The code of `{{ ... }}` and `{% ... %}` tags: slot names in literal text ("primary key") do not count.
const TAG = /\{[{%]([\s\S]*?)[}%]\}/g;

/** The child slots a template reads (`item`, `element`, `key`, `value`) and whether it reads `fields`. */
function slotsReadBy(template: string): { slots: Set<string>; fields: boolean } {
  const slots = new Set<string>();
  let fields = false;
  for (const match of template.matchAll(TAG)) {
    const code = match[1] ?? '';
    for (const name of CHILD_SLOT_NAMES) if (new RegExp(`\\b${name}\\b`).test(code)) slots.add(name);
    if (/\bfields\b/.test(code)) fields = true;
  }
  return { slots, fields };
}

/**
 * A container must have a child for every slot its template reads, and no child its template ignores:
 * an array without its element type is an error, not `[]`.
 */
function checkSlots(code: string, template: string, children: readonly { slot: string }[]): void {
  const read = slotsReadBy(template);
  const present = new Set(children.map((c) => c.slot));
  for (const slot of read.slots) {
    if (!present.has(slot)) throw new TemplateError(`'${code}' needs a child type in slot '${slot}'`);
  }
  for (const child of children) {
    const used = child.slot.startsWith('field:') ? read.fields : read.slots.has(child.slot);
    if (!used) throw new TemplateError(`'${code}' has no slot '${child.slot}'`);
  }
}
