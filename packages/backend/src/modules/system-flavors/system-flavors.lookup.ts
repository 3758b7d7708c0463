import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ParentLookup } from '../../common/crud/parent-lookup.js';
import type { SystemFlavorEntity } from './system-flavor.entity.js';
import { SystemFlavorsRepository } from './system-flavors.repository.js';

/** What other modules may ask about system flavors (ADR 0026); exported by `SystemFlavorsModule`. */
@Injectable()
export class SystemFlavorsLookup extends ParentLookup<SystemFlavorEntity> {
  constructor(private readonly flavors: SystemFlavorsRepository) {
    super(flavors.crud);
  }

  /** The active flavor with this code, or undefined. */
  findActiveByCode(code: string): Promise<SystemFlavorEntity | undefined> {
    return this.flavors.findActiveByCode(code);
  }

  /** The code of the kind of an active flavor (both rows share-locked), or undefined when not active. */
  kindCodeOf(flavorId: string, m: EntityManager): Promise<string | undefined> {
    return this.flavors.kindCodeOf(flavorId, m);
  }

  /** The codes of flavors, deleted or not, keyed by flavor id (lower case). */
  codesOf(flavorIds: readonly string[], m: EntityManager): Promise<Map<string, string>> {
    return this.flavors.codesOf(flavorIds, m);
  }

  /** `kindCodeOf` for many flavors in one query, keyed by flavor id (lower case). */
  kindCodesOf(flavorIds: readonly string[], m: EntityManager): Promise<Map<string, string>> {
    return this.flavors.kindCodesOf(flavorIds, m);
  }
}
