import type { TypeInstanceTree } from '@aide/schemas';
import { AppError } from '../../common/errors/app-error.js';
import { RenderBudget } from '../type-system/render-budget.js';
import { TemplateError, TemplateLimitError } from '../type-system/template-error.js';
import { type RenderableTypeNode, renderTypeTree } from '../type-system/type-tree-renderer.js';
import type { TypeTreeRow } from './type-instances.repository.js';
import { assertStoredTreesWithinLimits } from './type-tree-rules.js';

/** A type-instance node with its data type, children in order. */
export interface TypeTreeNode extends RenderableTypeNode {
  id: string;
  data_type_id: string;
  children: TypeTreeNode[];
}

/**
 * Builds the trees of the given rows (from `TypeInstancesRepository.subtrees`), keyed by node id.
 *
 * @throws AppError TYPE_INSTANCE_TREE_TOO_LARGE for a tree stored past the limits (before they were
 *   enforced on write): it is refused whole, never returned cut.
 */
export function buildTypeTrees(rows: readonly TypeTreeRow[]): Map<string, TypeTreeNode> {
  assertStoredTreesWithinLimits(rows);
  const nodes = new Map<string, TypeTreeNode>();
  for (const row of rows) {
    nodes.set(row.id, {
      id: row.id,
      data_type_id: row.data_type_id,
      code: row.data_type_code,
      render_template: row.render_template,
      type_params: row.type_params,
      slot: row.slot,
      children: [],
    });
  }
  // Rows arrive ordered by depth then ordinal, so children are appended in order.
  for (const row of rows) {
    const parent = row.parent_id ? nodes.get(row.parent_id) : undefined;
    if (parent) parent.children.push(nodes.get(row.id) as TypeTreeNode);
  }
  return nodes;
}

export function toTypeInstanceTree(node: TypeTreeNode): TypeInstanceTree {
  return {
    id: node.id,
    data_type_id: node.data_type_id,
    data_type_code: node.code,
    type_params: node.type_params,
    slot: node.slot,
    children: node.children.map(toTypeInstanceTree),
  };
}

function sortedParams(params: Record<string, unknown> | null): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(params ?? {}).sort()) {
    const value = params?.[key];
    if (value !== null && value !== undefined) out[key] = value;
  }
  return out;
}

/** A canonical text of a type tree: equal texts mean the same type (data types by id, params, children). */
export function typeSignature(node: {
  data_type_id: string;
  type_params: Record<string, unknown> | null;
  slot: string | null;
  children: readonly {
    data_type_id: string;
    type_params: Record<string, unknown> | null;
    slot: string | null;
    children: readonly unknown[];
  }[];
}): string {
  const walk = (n: typeof node): unknown => ({
    t: n.data_type_id,
    p: sortedParams(n.type_params),
    s: n.slot,
    c: n.children.map((c) => walk(c as typeof node)),
  });
  return JSON.stringify(walk(node));
}

/** Wide structs render long; the per-template default (1,000 characters) is meant for one node. */
const TYPE_TEXT_MAX_CHARS = 20_000;

/**
 * The type text of a tree: a template that fails is 422 TYPE_INSTANCE_RENDER_FAILED, one that would
 * exceed the render budget 422 TEMPLATE_RENDER_LIMIT. Pass one `budget` to every tree of a response so
 * that the response's rendering is bounded as a whole.
 */
export function renderTypeText(node: RenderableTypeNode, budget = new RenderBudget()): string {
  try {
    return renderTypeTree(node, { maxOutputChars: TYPE_TEXT_MAX_CHARS, budget });
  } catch (error) {
    if (error instanceof TemplateLimitError) throw new AppError('TEMPLATE_RENDER_LIMIT', error.message);
    if (error instanceof TemplateError) throw new AppError('TYPE_INSTANCE_RENDER_FAILED', error.message);
    throw error;
  }
}

/**
 * The type texts of a version's columns (each column's tree in column order, null for a column without
 * a type), rendered in order with one budget: what every read of the version renders (ADR 0005;
 * `VersionTypeTexts` answers the same from a cache). A failure names the column's tree in
 * `details.type_instance_id` when the tree has an id.
 */
export function renderColumnTypes(
  trees: readonly ((RenderableTypeNode & { id?: string }) | null)[],
): (string | null)[] {
  const budget = new RenderBudget();
  return trees.map((tree) => {
    if (tree === null) return null;
    try {
      return renderTypeText(tree, budget);
    } catch (error) {
      if (!(error instanceof AppError) || tree.id === undefined) throw error;
      throw new AppError(error.code, error.message, { ...error.details, type_instance_id: tree.id });
    }
  });
}

/**
 * The rule a version's bound trees obey from the moment they are bound (type-tree-rules.ts): within
 * the limits, complete, and rendering in column order within one budget. `rows` are the trees' nodes as
 * `subtrees` returns them, `roots` each column's tree in column order (null: no type).
 *
 * @throws AppError what a read of the version would meet (TYPE_INSTANCE_TREE_TOO_LARGE,
 *   TYPE_INSTANCE_RENDER_FAILED, TEMPLATE_RENDER_LIMIT).
 */
export function assertReadableColumnTypes(
  rows: readonly TypeTreeRow[],
  roots: readonly (string | null)[],
): void {
  const trees = buildTypeTrees(rows);
  renderColumnTypes(roots.map((id) => (id === null ? null : (trees.get(id) ?? null))));
}
