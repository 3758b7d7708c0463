import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CrudRepository } from '../../common/crud/crud-repository.js';
import { registerConstraintCodes } from '../../common/errors/db-error.js';
import { TechFieldTemplateEntity } from './tech-field-template.entity.js';

registerConstraintCodes({ uq_tech_field_templates_code: 'TECH_FIELD_TEMPLATE_ALREADY_EXISTS' });

@Injectable()
export class TechFieldTemplatesRepository {
  readonly crud: CrudRepository<TechFieldTemplateEntity>;

  constructor(dataSource: DataSource) {
    this.crud = new CrudRepository({
      dataSource,
      entity: TechFieldTemplateEntity,
      notFound: 'TECH_FIELD_TEMPLATE_NOT_FOUND',
      softDelete: false,
    });
  }
}
