import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ParentLookup } from '../../common/crud/parent-lookup.js';
import type { SystemEntity } from './system.entity.js';
import { SystemsRepository } from './systems.repository.js';

/** What other modules may ask about systems (ADR 0026); exported by `SystemsModule`. */
@Injectable()
export class SystemsLookup extends ParentLookup<SystemEntity> {
  constructor(private readonly systems: SystemsRepository) {
    super(systems.crud);
  }

  /** The code of an active system's kind (system, flavor and kind share-locked), or undefined. */
  kindCodeOf(systemId: string, m: EntityManager): Promise<string | undefined> {
    return this.systems.kindCodeOf(systemId, m);
  }

  /** `kindCodeOf` for many systems in one query, keyed by system id (lower case). */
  kindCodesOf(systemIds: readonly string[], m: EntityManager): Promise<Map<string, string>> {
    return this.systems.kindCodesOf(systemIds, m);
  }

  /** `kindCodesOf` with each system's flavor id. */
  kindsAndFlavorsOf(
    systemIds: readonly string[],
    m: EntityManager,
  ): Promise<Map<string, { kind_code: string; flavor_id: string }>> {
    return this.systems.kindsAndFlavorsOf(systemIds, m);
  }
}
