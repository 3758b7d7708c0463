import { Injectable } from '@nestjs/common';
import { ParentLookup } from '../../common/crud/parent-lookup.js';
import type { SystemKindEntity } from './system-kind.entity.js';
import { SystemKindsRepository } from './system-kinds.repository.js';

/** What other modules may ask about system kinds (ADR 0026); exported by `SystemKindsModule`. */
@Injectable()
export class SystemKindsLookup extends ParentLookup<SystemKindEntity> {
  constructor(repository: SystemKindsRepository) {
    super(repository.crud);
  }
}
