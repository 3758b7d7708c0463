import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { countReferencing } from '../../common/crud/dependants.js';
import { CrudRepository } from '../../common/crud/crud-repository.js';
import { registerConstraintCodes } from '../../common/errors/db-error.js';
import { SystemEntity } from './system.entity.js';

registerConstraintCodes({ uq_systems_code_active: 'SYSTEM_ALREADY_EXISTS' });

@Injectable()
export class SystemsRepository {
  readonly crud: CrudRepository<SystemEntity>;

  constructor(dataSource: DataSource) {
    this.crud = new CrudRepository({
      dataSource,
      entity: SystemEntity,
      notFound: 'SYSTEM_NOT_FOUND',
      softDelete: true,
    });
  }

  /**
   * The code of an active system's kind (system → flavor → kind), or undefined when the system is not
   * active. The three rows are share-locked: none of them can change kind before the caller commits.
   */
  async kindCodeOf(systemId: string, manager: EntityManager): Promise<string | undefined> {
    return (await this.kindCodesOf([systemId], manager)).get(systemId.toLowerCase());
  }

  /** `kindCodeOf` for many systems in one query, keyed by system id (lower case). */
  async kindCodesOf(systemIds: readonly string[], manager: EntityManager): Promise<Map<string, string>> {
    const kinds = await this.kindsAndFlavorsOf(systemIds, manager);
    return new Map([...kinds].map(([id, k]) => [id, k.kind_code]));
  }

  /** `kindCodesOf` with each system's flavor (system, flavor and kind share-locked). */
  async kindsAndFlavorsOf(
    systemIds: readonly string[],
    manager: EntityManager,
  ): Promise<Map<string, { kind_code: string; flavor_id: string }>> {
    if (systemIds.length === 0) return new Map();
    const rows: { id: string; code: string; flavor_id: string }[] = await manager.query(
      `SELECT s.id, k.code, s.flavor_id FROM systems s JOIN system_flavors f ON f.id = s.flavor_id
       JOIN system_kinds k ON k.id = f.kind_id
       WHERE s.id = ANY($1::uuid[]) AND s.deleted_at IS NULL FOR SHARE OF s, f, k`,
      [systemIds],
    );
    return new Map(rows.map((r) => [r.id, { kind_code: r.code, flavor_id: r.flavor_id }]));
  }

  /**
   * The active datasets of each active system of `systemIds`, keyed by system id (lower case; unknown
   * and deleted systems are absent). One grouped count over ix_datasets_system_id_active.
   */
  async countActiveDatasetsOf(
    systemIds: readonly string[],
    manager: EntityManager,
  ): Promise<Map<string, number>> {
    const rows: { id: string; n: number }[] = await manager.query(
      `SELECT s.id, (SELECT count(*)::int FROM datasets d WHERE d.system_id = s.id AND d.deleted_at IS NULL) AS n
       FROM systems s WHERE s.id = ANY($1::uuid[]) AND s.deleted_at IS NULL`,
      [systemIds],
    );
    return new Map(rows.map((r) => [r.id, r.n]));
  }

  /** Active datasets on the system (the delete guard). */
  countActiveDatasets(systemId: string, manager: EntityManager): Promise<number> {
    return countReferencing(manager, 'datasets', 'system_id', systemId, true);
  }

  /** Active connection profiles exporting the system's endpoint (the delete guard). */
  countActiveConnectionProfiles(systemId: string, manager: EntityManager): Promise<number> {
    return countReferencing(manager, 'connection_profiles', 'system_id', systemId, true);
  }

  /**
   * Whether some dataset on the system typed in the system's flavor (no flavor of its own, ADR 0045) has
   * a schema version with bindings.
   */
  async hasBoundVersions(systemId: string, manager: EntityManager): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `SELECT 1 FROM datasets d JOIN dataset_schemas v ON v.dataset_id = d.id
       WHERE d.system_id = $1 AND d.flavor_id IS NULL
         AND EXISTS (SELECT 1 FROM field_bindings b WHERE b.dataset_schema_id = v.id)
       LIMIT 1`,
      [systemId],
    );
    return rows.length > 0;
  }
}
