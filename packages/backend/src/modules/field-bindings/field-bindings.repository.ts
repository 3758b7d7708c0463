import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { CrudRepository } from '../../common/crud/crud-repository.js';
import { registerConstraintCodes } from '../../common/errors/db-error.js';
import { FieldBindingEntity } from './field-binding.entity.js';

registerConstraintCodes({
  uq_field_bindings_schema_field: 'FIELD_BINDING_FIELD_ID_ALREADY_EXISTS',
  uq_field_bindings_schema_position: 'FIELD_BINDING_POSITION_ALREADY_EXISTS',
  fk_field_bindings_field: 'FIELD_NOT_FOUND',
  fk_field_bindings_schema: 'DATASET_SCHEMA_NOT_FOUND',
  fk_field_bindings_type_instance: 'TYPE_INSTANCE_NOT_FOUND',
});

/** A binding with its field's name, as read for a version's columns. */
export interface BindingRow extends FieldBindingEntity {
  field_name: string;
}

@Injectable()
export class FieldBindingsRepository {
  readonly crud: CrudRepository<FieldBindingEntity>;

  constructor(dataSource: DataSource) {
    this.crud = new CrudRepository({
      dataSource,
      entity: FieldBindingEntity,
      notFound: 'FIELD_BINDING_NOT_FOUND',
      softDelete: false,
    });
  }

  async ofSchema(schemaId: string, manager?: EntityManager): Promise<BindingRow[]> {
    return this.ofSchemas([schemaId], manager);
  }

  /** The bindings of many versions in one query, by version then position. */
  async ofSchemas(schemaIds: readonly string[], manager?: EntityManager): Promise<BindingRow[]> {
    if (schemaIds.length === 0) return [];
    return (manager ?? this.crud.repo().manager).query(
      `SELECT b.*, f.name AS field_name FROM field_bindings b JOIN fields f ON f.id = b.field_id
       WHERE b.dataset_schema_id = ANY($1::uuid[]) ORDER BY b.dataset_schema_id, b.position`,
      [schemaIds],
    );
  }
}
