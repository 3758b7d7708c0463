import { Injectable } from '@nestjs/common';
import { ParentLookup } from '../../common/crud/parent-lookup.js';
import type { TypeInstanceEntity } from './type-instance.entity.js';
import { TypeInstancesRepository } from './type-instances.repository.js';

export type { TypeNodeRow, TypeTreeRow } from './type-instances.repository.js';

/** What other modules may ask about type instances (ADR 0026); exported by `TypeInstancesModule`. */
@Injectable()
export class TypeInstancesLookup extends ParentLookup<TypeInstanceEntity> {
  constructor(private readonly typeInstances: TypeInstancesRepository) {
    super(typeInstances.crud);
  }

  /** The type trees under the given roots (roots included), in one recursive query. */
  subtrees(...args: Parameters<TypeInstancesRepository['subtrees']>): ReturnType<TypeInstancesRepository['subtrees']> {
    return this.typeInstances.subtrees(...args);
  }

  /** The type trees bound by the columns of the given versions. */
  subtreesOfSchemas(...args: Parameters<TypeInstancesRepository['subtreesOfSchemas']>): ReturnType<TypeInstancesRepository['subtreesOfSchemas']> {
    return this.typeInstances.subtreesOfSchemas(...args);
  }
}
