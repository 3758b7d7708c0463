import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { CrudRepository } from '../../common/crud/crud-repository.js';
import { registerConstraintCodes } from '../../common/errors/db-error.js';
import { DataflowEntity } from './dataflow.entity.js';

registerConstraintCodes({
  uq_dataflows_workspace_name_active: 'DATAFLOW_ALREADY_EXISTS',
  fk_dataflows_dataset_link: 'DATASET_LINK_NOT_FOUND',
  fk_dataflows_workspace: 'WORKSPACE_NOT_FOUND',
  fk_dataflows_source_connection: 'CONNECTION_PROFILE_NOT_FOUND',
  fk_dataflows_destination_connection: 'CONNECTION_PROFILE_NOT_FOUND',
  fk_dataflows_source_dataset: 'DATASET_NOT_FOUND',
  fk_dataflows_destination_dataset: 'DATASET_NOT_FOUND',
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

  /** Active dataflows reading or writing a dataset (the dataset delete guard). */
  async countActiveForDataset(datasetId: string, manager: EntityManager): Promise<number> {
    const rows: { n: number }[] = await manager.query(
      `SELECT count(*)::int AS n FROM dataflows
       WHERE (source_dataset_id = $1 OR destination_dataset_id = $1) AND deleted_at IS NULL`,
      [datasetId],
    );
    return rows[0]?.n ?? 0;
  }
}
