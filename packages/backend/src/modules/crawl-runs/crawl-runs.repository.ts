import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CrudRepository } from '../../common/crud/crud-repository.js';
import type { FilterRelations } from '../../common/crud/list.js';
import { registerConstraintCodes } from '../../common/errors/db-error.js';
import { CrawlRunEntity } from './crawl-run.entity.js';

registerConstraintCodes({
  fk_crawl_runs_system: 'SYSTEM_NOT_FOUND',
  fk_crawl_run_datasets_run: 'CRAWL_RUN_NOT_FOUND',
});

/**
 * The relations of the crawl-run list's `related` filters: `dataset_id`, through the datasets each run's
 * report names, which the database keeps from `diff_payload` (migration 1766660000000, ADR 0061).
 */
export const CRAWL_RUN_RELATIONS: FilterRelations = {
  dataset_id: { table: 'crawl_run_datasets', rowKey: 'crawl_run_id', column: 'dataset_id' },
};

@Injectable()
export class CrawlRunsRepository {
  readonly crud: CrudRepository<CrawlRunEntity>;

  constructor(dataSource: DataSource) {
    this.crud = new CrudRepository({
      dataSource,
      entity: CrawlRunEntity,
      notFound: 'CRAWL_RUN_NOT_FOUND',
      softDelete: false,
      relations: CRAWL_RUN_RELATIONS,
    });
  }
}
