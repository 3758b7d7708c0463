import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ParentLookup } from '../../common/crud/parent-lookup.js';
import type { DataTypeEntity } from './data-type.entity.js';
import { type DataTypeRenderInfo, DataTypesRepository } from './data-types.repository.js';

export type { DataTypeRenderInfo };

/** What other modules may ask about data types (ADR 0026); exported by `DataTypesModule`. */
@Injectable()
export class DataTypesLookup extends ParentLookup<DataTypeEntity> {
  constructor(private readonly dataTypes: DataTypesRepository) {
    super(dataTypes.crud);
  }

  /** The active data types of a flavor, by code. */
  byCodeOfFlavor(flavorId: string, m?: EntityManager): Promise<Map<string, DataTypeEntity>> {
    return this.dataTypes.byCodeOfFlavor(flavorId, m);
  }

  /** `byCodeOfFlavor` for many flavors in one query, by flavor id. */
  byCodeOfFlavors(
    flavorIds: readonly string[],
    m: EntityManager,
  ): Promise<Map<string, Map<string, DataTypeEntity>>> {
    return this.dataTypes.byCodeOfFlavors(flavorIds, m);
  }

  /**
   * What rendering needs of data types, by id (deleted ones included: stored trees may use them), with
   * the row_version they were read at: a text rendered from them stays true while it is unchanged.
   */
  renderInfoOf(ids: readonly string[], m: EntityManager): Promise<Map<string, DataTypeRenderInfo>> {
    return this.dataTypes.renderInfoOf(ids, m);
  }
}
