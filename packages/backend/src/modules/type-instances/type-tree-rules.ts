import type { TypeSpec } from '@aide/schemas';
import { AppError } from '../../common/errors/app-error.js';
import { flavorMismatch } from '../system-flavors/flavor-mismatch.js';
import { MAX_TREE_DEPTH } from '../type-system/type-tree-renderer.js';

/*
 * The rules every type-instance tree obeys, whichever route writes it (publish, /type-instances,
 * /field-bindings) and checked again when a stored tree is read:
 *   - limits: at most MAX_TYPE_TREE_DEPTH levels and MAX_TYPE_TREE_NODES nodes (422
 *     TYPE_INSTANCE_TREE_TOO_LARGE), so that reads return trees whole;
 *   - flavor: every node's data type is of one flavor, and a bound tree's flavor is the flavor of its
 *     dataset — its own, else its system's (ADR 0045) — (422 TYPE_INSTANCE_FLAVOR_MISMATCH). A publish
 *     meets it by construction: it looks type codes up in the dataset's flavor only;
 *   - complete: a bound tree renders — a child in every slot its data type's template reads and none
 *     in a slot it ignores (type-tree-renderer.ts), a version's trees together within the render
 *     budget (422 TYPE_INSTANCE_RENDER_FAILED, TEMPLATE_RENDER_LIMIT). /type-instances builds a tree
 *     parent first, so a tree may be incomplete until it is bound; binding it (a publish,
 *     /field-bindings) makes it immutable, so that is when the version's trees are rendered
 *     (`renderColumnTypes`, type-tree.ts), as every read of the version renders them.
 */

/** Most levels of a type-instance tree (a root alone is 1): what the renderer renders. */
export const MAX_TYPE_TREE_DEPTH = MAX_TREE_DEPTH;
/** Most nodes of one type-instance tree (the root included): a wide struct, not a data set. */
export const MAX_TYPE_TREE_NODES = 5_000;

/** 422 TYPE_INSTANCE_TREE_TOO_LARGE: a tree with a node at `level`, which is past the depth limit. */
export function treeTooDeep(level: number, details?: Record<string, unknown>): AppError {
  return new AppError(
    'TYPE_INSTANCE_TREE_TOO_LARGE',
    `A type tree has at most ${MAX_TYPE_TREE_DEPTH} levels; this one would reach level ${level}.`,
    details,
  );
}

/** 422 TYPE_INSTANCE_TREE_TOO_LARGE: a tree past the node limit. */
export function treeTooLarge(details?: Record<string, unknown>): AppError {
  return new AppError(
    'TYPE_INSTANCE_TREE_TOO_LARGE',
    `A type tree has at most ${MAX_TYPE_TREE_NODES} nodes.`,
    details,
  );
}

/** A type tree to publish must fit the limits of a stored tree (walked iteratively). */
export function assertTypeSpecWithinLimits(spec: TypeSpec, path: (string | number)[]): void {
  let nodes = 0;
  const stack: [TypeSpec, number][] = [[spec, 1]];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const [node, level] = entry;
    if (++nodes > MAX_TYPE_TREE_NODES) throw treeTooLarge({ path });
    if (level > MAX_TYPE_TREE_DEPTH) throw treeTooDeep(level, { path });
    for (const child of node.children ?? []) stack.push([child.type, level + 1]);
  }
}

/** A stored node as read by `TypeInstancesRepository.subtrees` (depth 0 at its root). */
export interface StoredTypeNode {
  id: string;
  parent_id: string | null;
  depth: number | string;
  data_type_code: string;
  data_type_flavor_id: string;
}

/**
 * Each node's root, and the trees past the limits (by root id, with the error a read of one answers),
 * of stored rows ordered by depth as `subtrees` returns them. Depth is counted from each row set's
 * top (0 at a root, or 1 below the bound nodes of `descendantsOfSchemas`).
 */
export function storedTreeLimits(rows: readonly Pick<StoredTypeNode, 'id' | 'parent_id' | 'depth'>[]): {
  rootOf: Map<string, string>;
  tooLarge: Map<string, AppError>;
} {
  const rootOf = new Map<string, string>();
  const sizes = new Map<string, number>();
  const tooLarge = new Map<string, AppError>();
  for (const row of rows) {
    const root = (row.parent_id !== null ? rootOf.get(row.parent_id) : undefined) ?? row.id;
    rootOf.set(row.id, root);
    const size = (sizes.get(root) ?? 0) + 1;
    sizes.set(root, size);
    if (tooLarge.has(root)) continue;
    const level = Number(row.depth) + 1;
    if (level > MAX_TYPE_TREE_DEPTH) tooLarge.set(root, treeTooDeep(level));
    else if (size > MAX_TYPE_TREE_NODES) tooLarge.set(root, treeTooLarge());
  }
  return { rootOf, tooLarge };
}

/**
 * Stored trees (rows ordered by depth, as `subtrees` returns them) must fit the limits, whether they
 * were written before the limits existed or are about to be bound. Returns each node's root id.
 */
export function assertStoredTreesWithinLimits(
  rows: readonly Pick<StoredTypeNode, 'id' | 'parent_id' | 'depth'>[],
): Map<string, string> {
  const { rootOf, tooLarge } = storedTreeLimits(rows);
  for (const error of tooLarge.values()) throw error;
  return rootOf;
}

/**
 * Trees about to be bound must fit the limits and be typed, node by node, in the flavor of their
 * dataset — its own, else its system's (`flavorsOfRoot`: the flavors each root is bound under, one in
 * all sane cases).
 */
export function assertBindableTrees(
  rows: readonly StoredTypeNode[],
  flavorsOfRoot: ReadonlyMap<string, ReadonlySet<string>>,
): void {
  const rootOf = assertStoredTreesWithinLimits(rows);
  for (const row of rows) {
    const root = rootOf.get(row.id) as string;
    for (const expected of flavorsOfRoot.get(root) ?? []) {
      if (row.data_type_flavor_id === expected) continue;
      throw flavorMismatch(`Data type '${row.data_type_code}' is of another flavor than the dataset's.`, {
        type_instance_id: root,
        node_id: row.id,
        data_type: row.data_type_code,
        data_type_flavor_id: row.data_type_flavor_id,
        system_flavor_id: expected,
      });
    }
  }
}
