import { Injectable } from '@nestjs/common';
import { ParentLookup } from '../../common/crud/parent-lookup.js';
import type { EngineEntity } from './engine.entity.js';
import { EnginesRepository } from './engines.repository.js';

/** What other modules may ask about engines (ADR 0026); exported by `EnginesModule`. */
@Injectable()
export class EnginesLookup extends ParentLookup<EngineEntity> {
  constructor(repository: EnginesRepository) {
    super(repository.crud);
  }
}
