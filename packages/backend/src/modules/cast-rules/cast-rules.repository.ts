import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { CrudRepository } from '../../common/crud/crud-repository.js';
import { registerConstraintCodes } from '../../common/errors/db-error.js';
import type { CastCandidate, CastGaps } from './cast-resolver.js';
import { CastRuleEntity } from './cast-rule.entity.js';

registerConstraintCodes({
  uq_cast_rules_source_target: 'CAST_RULE_ALREADY_EXISTS',
  // cast_gaps rows are written by the seeder only (derived data); a violation means a type or flavor
  // went away, or another replica seeded the same "no mapping" first.
  uq_cast_gaps_source_flavor: 'CAST_RULE_ALREADY_EXISTS',
  fk_cast_gaps_source: 'DATA_TYPE_NOT_FOUND',
  fk_cast_gaps_target_flavor: 'SYSTEM_FLAVOR_NOT_FOUND',
});

@Injectable()
export class CastRulesRepository {
  readonly crud: CrudRepository<CastRuleEntity>;

  constructor(dataSource: DataSource) {
    this.crud = new CrudRepository({
      dataSource,
      entity: CastRuleEntity,
      notFound: 'CAST_RULE_NOT_FOUND',
      softDelete: false,
    });
  }

  /** Rules from the given source data types to active data types of the target flavor (one query). */
  async candidates(
    sourceIds: readonly string[],
    targetFlavorId: string,
    manager?: EntityManager,
  ): Promise<CastCandidate[]> {
    if (sourceIds.length === 0) return [];
    return (manager ?? this.crud.repo().manager).query(
      `SELECT r.*, t.code AS target_code, t.params_schema AS target_params_schema,
              t.render_template AS target_render_template
       FROM cast_rules r JOIN data_types t ON t.id = r.target_data_type_id
       WHERE r.source_data_type_id = ANY($1::uuid[]) AND t.system_flavor_id = $2 AND t.deleted_at IS NULL
       ORDER BY t.code`,
      [sourceIds, targetFlavorId],
    );
  }

  /** The "no mapping" reasons from the given source data types into the target flavor (one query). */
  async gaps(
    sourceIds: readonly string[],
    targetFlavorId: string,
    manager?: EntityManager,
  ): Promise<CastGaps> {
    if (sourceIds.length === 0) return new Map();
    const rows: { source_data_type_id: string; reason: string }[] = await (
      manager ?? this.crud.repo().manager
    ).query(
      `SELECT source_data_type_id, reason FROM cast_gaps
       WHERE source_data_type_id = ANY($1::uuid[]) AND target_flavor_id = $2`,
      [sourceIds, targetFlavorId],
    );
    return new Map(rows.map((r) => [r.source_data_type_id, r.reason]));
  }
}
