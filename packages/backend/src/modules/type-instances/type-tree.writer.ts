import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ResolvedTypeSpec } from './type-spec-resolver.js';
import type { TypeInstanceEntity } from './type-instance.entity.js';
import { TypeInstancesRepository } from './type-instances.repository.js';

/**
 * Inserts resolved type trees in one statement, whatever their number and depth: the nodes get their
 * ids here, so a child names its parent in the same INSERT (the foreign key is checked at its end).
 */
@Injectable()
export class TypeTreeWriter {
  constructor(private readonly typeInstances: TypeInstancesRepository) {}

  /** Returns the root id of each tree, in input order. */
  async insertTrees(
    trees: readonly ResolvedTypeSpec[],
    actorId: string,
    m: EntityManager,
  ): Promise<string[]> {
    const rows: Partial<TypeInstanceEntity>[] = [];
    const add = (spec: ResolvedTypeSpec, parentId: string | null, ordinal: number): string => {
      const id = randomUUID();
      rows.push({
        id,
        data_type_id: spec.data_type_id,
        type_params: spec.type_params,
        parent_id: parentId,
        slot: spec.slot,
        ordinal,
      });
      spec.children.forEach((child, i) => add(child, id, i));
      return id;
    };
    const rootIds = trees.map((tree) => add(tree, null, 0));
    await this.typeInstances.crud.insertManyBulk(rows, actorId, m);
    return rootIds;
  }
}
