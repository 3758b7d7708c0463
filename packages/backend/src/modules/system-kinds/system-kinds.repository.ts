import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { countReferencing } from '../../common/crud/dependants.js';
import { CrudRepository } from '../../common/crud/crud-repository.js';
import { registerConstraintCodes } from '../../common/errors/db-error.js';
import { SystemKindEntity } from './system-kind.entity.js';

registerConstraintCodes({
  uq_system_kinds_code_active: 'SYSTEM_KIND_ALREADY_EXISTS',
  fk_system_flavors_kind: 'SYSTEM_KIND_NOT_FOUND',
});

@Injectable()
export class SystemKindsRepository {
  readonly crud: CrudRepository<SystemKindEntity>;

  constructor(dataSource: DataSource) {
    this.crud = new CrudRepository({
      dataSource,
      entity: SystemKindEntity,
      notFound: 'SYSTEM_KIND_NOT_FOUND',
      softDelete: true,
    });
  }

  /** Active flavors of the kind (the delete guard). */
  countActiveFlavors(kindId: string, manager: EntityManager): Promise<number> {
    return countReferencing(manager, 'system_flavors', 'kind_id', kindId, true);
  }
}
