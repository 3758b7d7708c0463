import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CrudRepository } from '../../common/crud/crud-repository.js';
import { registerConstraintCodes } from '../../common/errors/db-error.js';
import { DataflowEntity } from './dataflow.entity.js';

registerConstraintCodes({
  uq_dataflows_workspace_name_active: 'DATAFLOW_ALREADY_EXISTS',
  uq_dataflows_workspace_datacoolie_id: 'DATAFLOW_ALREADY_EXISTS',
  fk_dataflows_dataset_link: 'DATASET_LINK_NOT_FOUND',
  fk_dataflows_workspace: 'WORKSPACE_NOT_FOUND',
  fk_dataflows_source_connection: 'CONNECTION_PROFILE_NOT_FOUND',
  fk_dataflows_destination_connection: 'CONNECTION_PROFILE_NOT_FOUND',
  fk_dataflows_source_dataset: 'DATASET_NOT_FOUND',
  fk_dataflows_destination_dataset: 'DATASET_NOT_FOUND',
  fk_dataflows_pinned_hint_schema_version: 'DATAFLOW_INVALID',
});

@Injectable()
export class DataflowsRepository {
  readonly crud: CrudRepository<DataflowEntity>;

  constructor(dataSource: DataSource) {
    this.crud = new CrudRepository({
      dataSource,
      entity: DataflowEntity,
      notFound: 'DATAFLOW_NOT_FOUND',
      softDelete: true,
    });
  }
}
