import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CrudRepository } from '../../common/crud/crud-repository.js';
import { registerConstraintCodes } from '../../common/errors/db-error.js';
import { CrawlRunEntity } from './crawl-run.entity.js';

registerConstraintCodes({ fk_crawl_runs_system: 'SYSTEM_NOT_FOUND' });

@Injectable()
export class CrawlRunsRepository {
  readonly crud: CrudRepository<CrawlRunEntity>;

  constructor(dataSource: DataSource) {
    this.crud = new CrudRepository({
      dataSource,
      entity: CrawlRunEntity,
      notFound: 'CRAWL_RUN_NOT_FOUND',
      softDelete: false,
    });
  }
}
