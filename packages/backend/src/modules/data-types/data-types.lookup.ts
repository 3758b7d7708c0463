import { Injectable } from '@nestjs/common';
import { ParentLookup } from '../../common/crud/parent-lookup.js';
import type { DataTypeEntity } from './data-type.entity.js';
import { DataTypesRepository } from './data-types.repository.js';

/** What other modules may ask about data types (ADR 0026); exported by `DataTypesModule`. */
@Injectable()
export class DataTypesLookup extends ParentLookup<DataTypeEntity> {
  constructor(private readonly dataTypes: DataTypesRepository) {
    super(dataTypes.crud);
  }

  /** The active data types of a flavor, by code. */
  byCodeOfFlavor(...args: Parameters<DataTypesRepository['byCodeOfFlavor']>): ReturnType<DataTypesRepository['byCodeOfFlavor']> {
    return this.dataTypes.byCodeOfFlavor(...args);
  }

  /** `byCodeOfFlavor` for many flavors in one query, by flavor id. */
  byCodeOfFlavors(...args: Parameters<DataTypesRepository['byCodeOfFlavors']>): ReturnType<DataTypesRepository['byCodeOfFlavors']> {
    return this.dataTypes.byCodeOfFlavors(...args);
  }
}
