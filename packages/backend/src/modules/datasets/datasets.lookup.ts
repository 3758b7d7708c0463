import { Injectable } from '@nestjs/common';
import { ParentLookup } from '../../common/crud/parent-lookup.js';
import type { DatasetEntity } from './dataset.entity.js';
import { DatasetsRepository } from './datasets.repository.js';

/** What other modules may ask about datasets (ADR 0026); exported by `DatasetsModule`. */
@Injectable()
export class DatasetsLookup extends ParentLookup<DatasetEntity> {
  constructor(private readonly datasets: DatasetsRepository) {
    super(datasets.crud);
  }

  /** The flavor of the dataset's system, the system share-locked (DATASET_NOT_FOUND when none). */
  flavorIdOf(...args: Parameters<DatasetsRepository['flavorIdOf']>): ReturnType<DatasetsRepository['flavorIdOf']> {
    return this.datasets.flavorIdOf(...args);
  }

  /** `flavorIdOf` for many datasets in one query, by dataset id. */
  flavorIdsOf(...args: Parameters<DatasetsRepository['flavorIdsOf']>): ReturnType<DatasetsRepository['flavorIdsOf']> {
    return this.datasets.flavorIdsOf(...args);
  }

  /** Active datasets held FOR SHARE with their systems and flavors, keyed by dataset id. */
  findActiveWithFlavor(...args: Parameters<DatasetsRepository['findActiveWithFlavor']>): ReturnType<DatasetsRepository['findActiveWithFlavor']> {
    return this.datasets.findActiveWithFlavor(...args);
  }

  /** The datasets foreign keys may name: active datasets by id, active rdbms datasets by table. */
  findTableTargets(...args: Parameters<DatasetsRepository['findTableTargets']>): ReturnType<DatasetsRepository['findTableTargets']> {
    return this.datasets.findTableTargets(...args);
  }

  /** A keyset page of a system's active datasets with their kind details. */
  findSystemPage(...args: Parameters<DatasetsRepository['findSystemPage']>): ReturnType<DatasetsRepository['findSystemPage']> {
    return this.datasets.findSystemPage(...args);
  }
}
