import type { Field, FieldTree } from '@aide/schemas';
import { auditFields } from '../../common/crud/audit-mapper.js';
import type { FieldEntity } from './field.entity.js';

export function toField(e: FieldEntity): Field {
  return {
    ...auditFields(e),
    dataset_id: e.dataset_id,
    parent_id: e.parent_id,
    name: e.name,
    path: e.path,
    extra: e.extra,
    origin: e.origin,
  };
}

/** Nests a dataset's fields under their parents; roots first, siblings in the given order. */
export function toFieldTrees(rows: readonly FieldEntity[]): FieldTree[] {
  const nodes = new Map<string, FieldTree>();
  for (const row of rows) nodes.set(row.id, { ...toField(row), children: [] });
  const roots: FieldTree[] = [];
  for (const row of rows) {
    const node = nodes.get(row.id) as FieldTree;
    const parent = row.parent_id ? nodes.get(row.parent_id) : undefined;
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}
