import type { EngineKind, ListQuery, Page } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { countReferencing } from '../../common/crud/dependants.js';
import { CrudRepository } from '../../common/crud/crud-repository.js';
import { PolymorphicReads } from '../../common/crud/polymorphic.js';
import { AppError } from '../../common/errors/app-error.js';
import { registerConstraintCodes } from '../../common/errors/db-error.js';
import { ENGINE_KIND_ENTITIES, EngineEntity, type EngineRow } from './engine.entity.js';

registerConstraintCodes({
  uq_engines_code_active: 'ENGINE_CODE_ALREADY_EXISTS',
  // A kind's detail row is written with its engine, in the same transaction.
  fk_engine_debezium_engine: 'ENGINE_NOT_FOUND',
  fk_engine_ogg_engine: 'ENGINE_NOT_FOUND',
  fk_engine_spark_engine: 'ENGINE_NOT_FOUND',
  fk_engine_impala_engine: 'ENGINE_NOT_FOUND',
});

/** Engines with their kind details (the four kind tables joined in the same query). */
@Injectable()
export class EnginesRepository {
  readonly crud: CrudRepository<EngineEntity>;
  readonly reads: PolymorphicReads<EngineEntity, EngineKind, typeof ENGINE_KIND_ENTITIES>;

  constructor(dataSource: DataSource) {
    this.crud = new CrudRepository({
      dataSource,
      entity: EngineEntity,
      notFound: 'ENGINE_NOT_FOUND',
      softDelete: true,
    });
    this.reads = new PolymorphicReads(this.crud, ENGINE_KIND_ENTITIES);
  }

  findPage(query: ListQuery): Promise<Page<EngineRow>> {
    return this.reads.findPage(query);
  }

  async getWithDetails(id: string, manager?: EntityManager, includeDeleted = false): Promise<EngineRow> {
    const row = await this.reads.findOne(id, manager, includeDeleted);
    if (!row) throw new AppError('ENGINE_NOT_FOUND');
    return row;
  }

  /** Whether another active engine has this code (restore re-checks it). */
  async codeTaken(code: string, exceptId: string, manager: EntityManager): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      'SELECT 1 FROM engines WHERE code = $1 AND id <> $2 AND deleted_at IS NULL LIMIT 1',
      [code, exceptId],
    );
    return rows.length > 0;
  }

  /** Active dataset links attached to the engine (the delete guard). */
  countActiveLinks(engineId: string, manager: EntityManager): Promise<number> {
    return countReferencing(manager, 'dataset_links', 'engine_id', engineId, true);
  }
}
