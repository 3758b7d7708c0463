import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ParentLookup } from '../../common/crud/parent-lookup.js';
import type { FieldEntity } from './field.entity.js';
import { FieldsRepository } from './fields.repository.js';

/** What other modules may ask about fields (ADR 0026); exported by `FieldsModule`. */
@Injectable()
export class FieldsLookup extends ParentLookup<FieldEntity> {
  constructor(private readonly fields: FieldsRepository) {
    super(fields.crud);
  }

  /**
   * The active field held FOR UPDATE, or FIELD_NOT_FOUND: a classification's insert trigger updates the
   * field's current tags (ADR 0018), and two transactions holding a share lock on the same field would
   * deadlock upgrading it.
   */
  lockForClassification(id: string, m: EntityManager): Promise<FieldEntity> {
    return this.fields.crud.getActive(id, m, 'update');
  }

  /** Root fields of the datasets by name (case-insensitive), held FOR SHARE until the caller commits. */
  lockRootsByName(
    wanted: readonly { datasetId: string; name: string }[],
    m: EntityManager,
  ): Promise<{ id: string; dataset_id: string; name: string; origin: string }[]> {
    return this.fields.lockRootsByName(wanted, m);
  }
}
