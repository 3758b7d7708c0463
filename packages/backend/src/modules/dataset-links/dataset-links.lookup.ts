import { Injectable } from '@nestjs/common';
import { ParentLookup } from '../../common/crud/parent-lookup.js';
import type { DatasetLinkEntity } from './dataset-link.entity.js';
import { DatasetLinksRepository } from './dataset-links.repository.js';

/** What other modules may ask about dataset links (ADR 0026); exported by `DatasetLinksModule`. */
@Injectable()
export class DatasetLinksLookup extends ParentLookup<DatasetLinkEntity> {
  constructor(repository: DatasetLinksRepository) {
    super(repository.crud);
  }
}
