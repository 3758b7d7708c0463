import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ParentLookup } from '../../common/crud/parent-lookup.js';
import type { DatasetEntity, DatasetRow } from './dataset.entity.js';
import { DatasetsRepository } from './datasets.repository.js';

/** What other modules may ask about datasets (ADR 0026); exported by `DatasetsModule`. */
@Injectable()
export class DatasetsLookup extends ParentLookup<DatasetEntity> {
  constructor(private readonly datasets: DatasetsRepository) {
    super(datasets.crud);
  }

  /**
   * The flavor the dataset's columns are typed in — its own, else its system's — dataset and system
   * share-locked (DATASET_NOT_FOUND when none).
   */
  flavorIdOf(datasetId: string, m: EntityManager): Promise<string> {
    return this.datasets.flavorIdOf(datasetId, m);
  }

  /** The code of the flavor the dataset's columns are typed in; no locks. */
  flavorCodeOf(datasetId: string, m: EntityManager): Promise<string | undefined> {
    return this.datasets.flavorCodeOf(datasetId, m);
  }

  /** `flavorIdOf` for many datasets in one query, by dataset id. */
  flavorIdsOf(datasetIds: readonly string[], m: EntityManager): Promise<Map<string, string>> {
    return this.datasets.flavorIdsOf(datasetIds, m);
  }

  /** Active datasets held FOR SHARE with their systems and flavors, keyed by dataset id. */
  findActiveWithFlavor(
    ids: readonly string[],
    m: EntityManager,
  ): Promise<Map<string, { id: string; system_id: string; flavor_id: string }>> {
    return this.datasets.findActiveWithFlavor(ids, m);
  }

  /** The datasets foreign keys may name: active datasets by id, active rdbms datasets by table. */
  findTableTargets(
    ids: readonly string[],
    tables: readonly { system_id: string; table: string }[],
    m: EntityManager,
  ): Promise<{ id: string; system_id: string; schema_name: string | null; table_name: string | null }[]> {
    return this.datasets.findTableTargets(ids, tables, m);
  }

  /** A keyset page of a system's active datasets with their kind details. */
  findSystemPage(
    systemId: string,
    afterId: string | null,
    limit: number,
    m?: EntityManager,
  ): Promise<DatasetRow[]> {
    return this.datasets.findSystemPage(systemId, afterId, limit, m);
  }

  /** The given datasets of a system, deleted ones aside, in id order. */
  findSystemDatasets(systemId: string, ids: readonly string[], m?: EntityManager): Promise<DatasetRow[]> {
    return this.datasets.findSystemDatasets(systemId, ids, m);
  }
}
