import { templateSlots } from '@aide/schemas';
import { RenderBudget } from './render-budget.js';
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
 * One {@link RenderBudget} (the given one, or a fresh one) is charged by every node, so the work of a
 * whole tree is bounded: by the budget's base plus a small allowance per node.
 *
 * @throws TemplateLimitError when the tree's rendering would exceed the budget.
 * @throws TemplateError when a template fails, the tree is too deep, or an output is too long.
 */
export function renderTypeTree(node: RenderableTypeNode, options: RenderOptions = {}): string {
  const budget = options.budget ?? new RenderBudget();
  budget.allowNodes(countNodes(node));
  return renderNode(node, { ...options, budget }, 0);
}

function countNodes(root: RenderableTypeNode): number {
  let count = 0;
  const stack = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    count++;
    stack.push(...node.children);
  }
  return count;
}

function renderNode(
  node: RenderableTypeNode,
  options: RenderOptions & { budget: RenderBudget },
  depth: number,
): string {
  if (depth >= MAX_TREE_DEPTH) {
    throw new TemplateError(`type tree is deeper than ${MAX_TREE_DEPTH} levels`);
  }
  const children = node.children.map((child) => {
    if (child.slot === null) {
      throw new TemplateError(`a child of '${node.code}' has no slot`);
    }
    return { slot: child.slot, rendered: renderNode(child, options, depth + 1) };
  });
  const slotsError = childSlotsError(node.code, node.render_template, children);
  if (slotsError !== null) throw new TemplateError(slotsError);
  if (node.render_template === null) {
    options.budget.step();
    const rendered = renderWithoutTemplate(
      node.code,
      node.type_params,
      children.map((child) => child.rendered),
    );
    const maxOutputChars = options.maxOutputChars ?? MAX_OUTPUT_CHARS;
    if (rendered.length > maxOutputChars) {
      throw new TemplateError(`rendered type is longer than ${maxOutputChars} characters`);
    }
    options.budget.charge(rendered.length);
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

const SLOTS_CACHE_SIZE = 512;
const slotsCache = new Map<string, { slots: Set<string>; fields: boolean }>();

/** The child slots a template reads (`templateSlots` of @aide/schemas, the UI's too), cached. */
function slotsReadBy(template: string): { slots: Set<string>; fields: boolean } {
  let read = slotsCache.get(template);
  if (read === undefined) {
    const scanned = templateSlots(template);
    read = { slots: new Set(scanned.slots), fields: scanned.fields };
    if (slotsCache.size >= SLOTS_CACHE_SIZE) slotsCache.delete(slotsCache.keys().next().value as string);
    slotsCache.set(template, read);
  }
  return read;
}

/**
 * A container must have a child for every slot its template reads, and no child its template ignores:
 * an array without its element type is an error, not `[]`. Returns what is wrong, or null; a data type
 * without a template takes any children.
 */
export function childSlotsError(
  code: string,
  template: string | null,
  children: readonly { slot: string }[],
): string | null {
  if (template === null) return null;
  const read = slotsReadBy(template);
  const present = new Set(children.map((c) => c.slot));
  for (const slot of read.slots) {
    if (!present.has(slot)) return `'${code}' needs a child type in slot '${slot}'`;
  }
  for (const child of children) {
    const used = child.slot.startsWith('field:') ? read.fields : read.slots.has(child.slot);
    if (!used) return `'${code}' has no slot '${child.slot}'`;
  }
  return null;
}
