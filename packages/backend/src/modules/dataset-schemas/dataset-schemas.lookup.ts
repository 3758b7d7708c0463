import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ParentLookup } from '../../common/crud/parent-lookup.js';
import type { DatasetSchemaEntity } from './dataset-schema.entity.js';
import { DatasetSchemasRepository } from './dataset-schemas.repository.js';

/** What other modules may ask about dataset schemas (ADR 0026); exported by `DatasetSchemasModule`. */
@Injectable()
export class DatasetSchemasLookup extends ParentLookup<DatasetSchemaEntity> {
  constructor(private readonly schemas: DatasetSchemasRepository) {
    super(schemas.crud);
  }

  /** A dataset's version by number, if it exists. */
  findByVersion(
    datasetId: string,
    versionNum: number,
    m?: EntityManager,
  ): Promise<DatasetSchemaEntity | undefined> {
    return this.schemas.findByVersion(datasetId, versionNum, m);
  }

  /** Whether the version has bindings (is published history). */
  hasBindings(schemaId: string, m?: EntityManager): Promise<boolean> {
    return this.schemas.hasBindings(schemaId, m);
  }

  /** The current (newest) version of each dataset that has one, in one query. */
  findCurrentOfMany(datasetIds: readonly string[], m: EntityManager): Promise<DatasetSchemaEntity[]> {
    return this.schemas.findCurrentOfMany(datasetIds, m);
  }
}
