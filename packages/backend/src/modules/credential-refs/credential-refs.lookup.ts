import { Injectable } from '@nestjs/common';
import { ParentLookup } from '../../common/crud/parent-lookup.js';
import type { CredentialRefEntity } from './credential-ref.entity.js';
import { CredentialRefsRepository } from './credential-refs.repository.js';

/** What other modules may ask about credential refs (ADR 0026); exported by `CredentialRefsModule`. */
@Injectable()
export class CredentialRefsLookup extends ParentLookup<CredentialRefEntity> {
  constructor(repository: CredentialRefsRepository) {
    super(repository.crud);
  }
}
