import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ParentLookup } from '../../common/crud/parent-lookup.js';
import type { TypeInstanceEntity } from './type-instance.entity.js';
import { type TypeNodeRow, TypeInstancesRepository, type TypeTreeRow } from './type-instances.repository.js';

export type { TypeNodeRow, TypeTreeRow };

/** What other modules may ask about type instances (ADR 0026); exported by `TypeInstancesModule`. */
@Injectable()
export class TypeInstancesLookup extends ParentLookup<TypeInstanceEntity> {
  constructor(private readonly typeInstances: TypeInstancesRepository) {
    super(typeInstances.crud);
  }

  /** The type trees under the given roots (roots included), in one recursive query. */
  subtrees(rootIds: readonly string[], m?: EntityManager): Promise<TypeNodeRow[]> {
    return this.typeInstances.subtrees(rootIds, m);
  }

  /**
   * The nodes below the nodes bound by the columns of the given versions (the bound nodes come with
   * the columns), by depth, ordinal and slot; without data type codes (the caller reads those by id).
   */
  descendantsOfSchemas(
    schemaIds: readonly string[],
    m: EntityManager,
  ): Promise<Omit<TypeTreeRow, 'data_type_code' | 'render_template'>[]> {
    return this.typeInstances.descendantsOfSchemas(schemaIds, m);
  }
}
