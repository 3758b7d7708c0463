import type { Field, FieldTree } from '@aide/schemas';
import { withAudit } from '../../common/crud/audit-mapper.js';
import { fieldTooDeep } from './field-limits.js';
import type { FieldEntity } from './field.entity.js';

export function toField(e: FieldEntity): Field {
  return withAudit<Field>(e, {
    dataset_id: e.dataset_id,
    parent_id: e.parent_id,
    name: e.name,
    path: e.path,
    extra: e.extra,
    origin: e.origin,
  });
}

/**
 * Nests a dataset's fields under their parents; roots first, siblings in the given order. Iterative;
 * a tree deeper than `maxDepth` (stored before the limit was enforced on write) is FIELD_TREE_TOO_DEEP,
 * never cut.
 */
export function toFieldTrees(rows: readonly FieldEntity[], maxDepth: number): FieldTree[] {
  const nodes = new Map<string, FieldTree>();
  const ordered = rows.map((row) => {
    const children: FieldTree[] = [];
    const node: FieldTree = Object.assign(toField(row), { children });
    nodes.set(row.id, node);
    return node;
  });
  const roots: FieldTree[] = [];
  for (const node of ordered) {
    const parent = node.parent_id ? nodes.get(node.parent_id) : undefined;
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  const stack: [FieldTree, number][] = roots.map((root) => [root, 1]);
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const [node, level] = entry;
    if (level > maxDepth) throw fieldTooDeep(level);
    for (const child of node.children) stack.push([child, level + 1]);
  }
  return roots;
}
