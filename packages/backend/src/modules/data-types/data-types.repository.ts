import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { countReferencing } from '../../common/crud/dependants.js';
import { CrudRepository } from '../../common/crud/crud-repository.js';
import { registerConstraintCodes } from '../../common/errors/db-error.js';
import { DataTypeEntity } from './data-type.entity.js';

registerConstraintCodes({
  uq_data_types_flavor_code_active: 'DATA_TYPE_ALREADY_EXISTS',
  fk_data_types_flavor: 'SYSTEM_FLAVOR_NOT_FOUND',
  fk_cast_rules_source: 'DATA_TYPE_NOT_FOUND',
  fk_cast_rules_target: 'DATA_TYPE_NOT_FOUND',
});

/** What rendering a type tree reads of a data type, and the row_version it was read at. */
export interface DataTypeRenderInfo {
  code: string;
  render_template: string | null;
  row_version: number;
}

@Injectable()
export class DataTypesRepository {
  readonly crud: CrudRepository<DataTypeEntity>;

  constructor(dataSource: DataSource) {
    this.crud = new CrudRepository({
      dataSource,
      entity: DataTypeEntity,
      notFound: 'DATA_TYPE_NOT_FOUND',
      softDelete: true,
    });
  }

  /** The active data types of a flavor, by code. */
  async byCodeOfFlavor(flavorId: string, manager?: EntityManager): Promise<Map<string, DataTypeEntity>> {
    const rows = await this.crud
      .repo(manager)
      .createQueryBuilder('t')
      .where('t.system_flavor_id = :flavorId AND t.deleted_at IS NULL', { flavorId })
      .getMany();
    return new Map(rows.map((r) => [r.code, r]));
  }

  /** `byCodeOfFlavor` for many flavors in one query, keyed by flavor id. */
  async byCodeOfFlavors(
    flavorIds: readonly string[],
    manager: EntityManager,
  ): Promise<Map<string, Map<string, DataTypeEntity>>> {
    const byFlavor = new Map(flavorIds.map((id) => [id, new Map<string, DataTypeEntity>()]));
    if (flavorIds.length === 0) return byFlavor;
    const rows = await this.crud
      .repo(manager)
      .createQueryBuilder('t')
      .where('t.system_flavor_id = ANY(:flavorIds::uuid[]) AND t.deleted_at IS NULL', {
        flavorIds: [...flavorIds],
      })
      .getMany();
    for (const row of rows) byFlavor.get(row.system_flavor_id)?.set(row.code, row);
    return byFlavor;
  }

  /** Type instances of the data type (its flavor cannot change while any exist). */
  countTypeInstances(dataTypeId: string, manager: EntityManager): Promise<number> {
    return countReferencing(manager, 'type_instances', 'data_type_id', dataTypeId, false);
  }

  /** What rendering needs of data types, by id (deleted ones included: stored trees may use them). */
  async renderInfoOf(
    ids: readonly string[],
    manager: EntityManager,
  ): Promise<Map<string, DataTypeRenderInfo>> {
    if (ids.length === 0) return new Map();
    const rows: ({ id: string } & DataTypeRenderInfo)[] = await manager.query(
      'SELECT id, code, render_template, row_version FROM data_types WHERE id = ANY($1::uuid[])',
      [ids],
    );
    return new Map(rows.map((r) => [r.id, r]));
  }
}
