import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ParentLookup } from '../../common/crud/parent-lookup.js';
import type { CastCandidate, CastGaps } from './cast-resolver.js';
import type { CastRuleEntity } from './cast-rule.entity.js';
import { CastRulesRepository } from './cast-rules.repository.js';

/** What other modules may ask about cast rules (ADR 0026); exported by `CastRulesModule`. */
@Injectable()
export class CastRulesLookup extends ParentLookup<CastRuleEntity> {
  constructor(private readonly castRules: CastRulesRepository) {
    super(castRules.crud);
  }

  /** Rules from the given source data types to active data types of the target flavor (one query). */
  candidates(
    sourceIds: readonly string[],
    targetFlavorId: string,
    m?: EntityManager,
  ): Promise<CastCandidate[]> {
    return this.castRules.candidates(sourceIds, targetFlavorId, m);
  }

  /** The "no mapping" reasons from the given source data types into the target flavor (one query). */
  gaps(sourceIds: readonly string[], targetFlavorId: string, m?: EntityManager): Promise<CastGaps> {
    return this.castRules.gaps(sourceIds, targetFlavorId, m);
  }
}
