import type { TypeSpec } from '@aide/schemas';
import { AppError } from '../../common/errors/app-error.js';
import { MAX_TREE_DEPTH } from '../type-system/type-tree-renderer.js';

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
