import { Injectable } from '@nestjs/common';
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
  kindCodeOf(...args: Parameters<SystemsRepository['kindCodeOf']>): ReturnType<SystemsRepository['kindCodeOf']> {
    return this.systems.kindCodeOf(...args);
  }

  /** `kindCodeOf` for many systems in one query, keyed by system id (lower case). */
  kindCodesOf(...args: Parameters<SystemsRepository['kindCodesOf']>): ReturnType<SystemsRepository['kindCodesOf']> {
    return this.systems.kindCodesOf(...args);
  }
}
