import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { countReferencing } from '../../common/crud/dependants.js';
import { CrudRepository } from '../../common/crud/crud-repository.js';
import { registerConstraintCodes } from '../../common/errors/db-error.js';
import { SystemFlavorEntity } from './system-flavor.entity.js';

registerConstraintCodes({
  uq_system_flavors_code_active: 'SYSTEM_FLAVOR_ALREADY_EXISTS',
  fk_systems_flavor: 'SYSTEM_FLAVOR_NOT_FOUND',
});

@Injectable()
export class SystemFlavorsRepository {
  readonly crud: CrudRepository<SystemFlavorEntity>;

  constructor(dataSource: DataSource) {
    this.crud = new CrudRepository({
      dataSource,
      entity: SystemFlavorEntity,
      notFound: 'SYSTEM_FLAVOR_NOT_FOUND',
      softDelete: true,
    });
  }

  async findActiveByCode(code: string, manager?: EntityManager): Promise<SystemFlavorEntity | undefined> {
    return (
      (await this.crud
        .repo(manager)
        .createQueryBuilder('f')
        .where('f.code = :code AND f.deleted_at IS NULL', { code })
        .getOne()) ?? undefined
    );
  }

  /** The code of the kind of an active flavor (both rows share-locked), or undefined when not active. */
  async kindCodeOf(flavorId: string, manager: EntityManager): Promise<string | undefined> {
    const rows: { code: string }[] = await manager.query(
      `SELECT k.code FROM system_flavors f JOIN system_kinds k ON k.id = f.kind_id
       WHERE f.id = $1 AND f.deleted_at IS NULL FOR SHARE OF f, k`,
      [flavorId],
    );
    return rows[0]?.code;
  }

  /** The codes of flavors, deleted or not, keyed by flavor id (lower case). */
  async codesOf(flavorIds: readonly string[], manager: EntityManager): Promise<Map<string, string>> {
    if (flavorIds.length === 0) return new Map();
    const rows: { id: string; code: string }[] = await manager.query(
      `SELECT id, code FROM system_flavors WHERE id = ANY($1::uuid[])`,
      [[...new Set(flavorIds)]],
    );
    return new Map(rows.map((r) => [r.id, r.code]));
  }

  /** `kindCodeOf` for many flavors in one query, keyed by flavor id (lower case). */
  async kindCodesOf(flavorIds: readonly string[], manager: EntityManager): Promise<Map<string, string>> {
    if (flavorIds.length === 0) return new Map();
    const rows: { id: string; code: string }[] = await manager.query(
      `SELECT f.id, k.code FROM system_flavors f JOIN system_kinds k ON k.id = f.kind_id
       WHERE f.id = ANY($1::uuid[]) AND f.deleted_at IS NULL ORDER BY f.id FOR SHARE OF f, k`,
      [[...new Set(flavorIds.map((id) => id.toLowerCase()))]],
    );
    return new Map(rows.map((r) => [r.id, r.code]));
  }

  /** Active systems, datasets and data types of the flavor (the delete guard). */
  async countActiveDependants(flavorId: string, manager: EntityManager): Promise<number> {
    return (
      (await countReferencing(manager, 'systems', 'flavor_id', flavorId, true)) +
      (await countReferencing(manager, 'datasets', 'flavor_id', flavorId, true)) +
      (await countReferencing(manager, 'data_types', 'system_flavor_id', flavorId, true))
    );
  }
}
