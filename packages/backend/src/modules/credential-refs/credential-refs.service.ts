import type { CreateCredentialRef, CredentialRef, ListQuery, Page, UpdateCredentialRef } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user.js';
import type { CrudService } from '../../common/crud/crud-service.js';
import { mapPage } from '../../common/crud/list.js';
import { splitUpdate } from '../../common/crud/update-input.js';
import { AppError } from '../../common/errors/app-error.js';
import { Transactions } from '../../database/transactions.js';
import { toCredentialRef } from './credential-ref.mapper.js';
import { CredentialRefsRepository } from './credential-refs.repository.js';

@Injectable()
export class CredentialRefsService implements CrudService<
  CredentialRef,
  CreateCredentialRef,
  UpdateCredentialRef
> {
  constructor(
    private readonly refs: CredentialRefsRepository,
    private readonly tx: Transactions,
  ) {}

  async list(query: ListQuery): Promise<Page<CredentialRef>> {
    return mapPage(await this.refs.crud.findPage(query), toCredentialRef);
  }

  get(id: string): Promise<CredentialRef> {
    return this.refs.crud.getActivePrepared(id).then(toCredentialRef);
  }

  create(input: CreateCredentialRef, actor: AuthUser): Promise<CredentialRef> {
    return this.tx.run((m) => this.createIn(input, actor, m));
  }

  /** `create` in the caller's transaction (a DataCoolie import makes the references it names). */
  async createIn(input: CreateCredentialRef, actor: AuthUser, m: EntityManager): Promise<CredentialRef> {
    return toCredentialRef(await this.refs.crud.insert(input, actor.id, m));
  }

  update(
    id: string,
    input: UpdateCredentialRef,
    ifMatch: number | undefined,
    actor: AuthUser,
  ): Promise<CredentialRef> {
    const { changes, version } = splitUpdate(input, ifMatch);
    return this.tx.run(async (m) =>
      toCredentialRef(await this.refs.crud.update(id, changes, version, actor.id, m)),
    );
  }

  /** Refused while an active system points at the reference. */
  remove(id: string, actor: AuthUser): Promise<CredentialRef> {
    return this.tx.run(async (m) => {
      await this.refs.crud.getActive(id, m, 'update');
      if ((await this.refs.countActiveSystems(id, m)) > 0) {
        throw new AppError('HAS_DEPENDENT_ENTITIES');
      }
      // Connection profiles name secrets through it (exported as secrets_ref).
      if ((await this.refs.countActiveConnectionProfiles(id, m)) > 0) {
        throw new AppError('HAS_DEPENDENT_ENTITIES');
      }
      return toCredentialRef(await this.refs.crud.softDelete(id, actor.id, m));
    });
  }

  restore(id: string, actor: AuthUser): Promise<CredentialRef> {
    return this.tx.run(async (m) => toCredentialRef(await this.refs.crud.restore(id, actor.id, m)));
  }
}
