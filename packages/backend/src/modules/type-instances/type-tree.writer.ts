import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ResolvedTypeSpec } from '../schema-versions/type-spec-resolver.js';
import { TypeInstancesRepository } from './type-instances.repository.js';

/** Inserts resolved type trees level by level: one INSERT per depth, whatever the number of trees. */
@Injectable()
export class TypeTreeWriter {
  constructor(private readonly typeInstances: TypeInstancesRepository) {}

  /** Returns the root id of each tree, in input order. */
  async insertTrees(
    trees: readonly ResolvedTypeSpec[],
    actorId: string,
    m: EntityManager,
  ): Promise<string[]> {
    let level: { spec: ResolvedTypeSpec; parentId: string | null; ordinal: number }[] = trees.map((spec) => ({
      spec,
      parentId: null,
      ordinal: 0,
    }));
    let rootIds: string[] = [];
    while (level.length > 0) {
      const rows = await this.typeInstances.crud.insertMany(
        level.map((n) => ({
          data_type_id: n.spec.data_type_id,
          type_params: n.spec.type_params,
          parent_id: n.parentId,
          slot: n.spec.slot,
          ordinal: n.ordinal,
        })),
        actorId,
        m,
      );
      if (rootIds.length === 0) rootIds = rows.map((r) => r.id);
      level = level.flatMap((n, i) =>
        n.spec.children.map((child, ordinal) => ({
          spec: child,
          parentId: (rows[i] as { id: string }).id,
          ordinal,
        })),
      );
    }
    return rootIds;
  }
}
