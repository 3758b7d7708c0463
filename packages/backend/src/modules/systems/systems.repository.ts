import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CrudRepository } from '../../common/crud/crud-repository.js';
import { registerConstraintCodes } from '../../common/errors/db-error.js';
import { SystemEntity } from './system.entity.js';

registerConstraintCodes({ uq_systems_code_active: 'SYSTEM_ALREADY_EXISTS' });

@Injectable()
export class SystemsRepository {
  readonly crud: CrudRepository<SystemEntity>;

  constructor(dataSource: DataSource) {
    this.crud = new CrudRepository({
      dataSource,
      entity: SystemEntity,
      notFound: 'SYSTEM_NOT_FOUND',
      softDelete: true,
    });
  }
}
