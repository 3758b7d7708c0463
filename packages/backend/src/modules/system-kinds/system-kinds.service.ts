import type { CreateSystemKind, ListQuery, Page, SystemKind, UpdateSystemKind } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user.js';
import { mapPage } from '../../common/crud/list.js';
import { splitUpdate } from '../../common/crud/update-input.js';
import { AppError } from '../../common/errors/app-error.js';
import { Transactions } from '../../database/transactions.js';
import { assertDatasetKindsFit, datasetKindsWithin } from './dataset-kind-rules.js';
import { toSystemKind } from './system-kind.mapper.js';
import { SystemKindsRepository } from './system-kinds.repository.js';

@Injectable()
export class SystemKindsService {
  constructor(
    private readonly kinds: SystemKindsRepository,
    private readonly tx: Transactions,
  ) {}

  async list(query: ListQuery): Promise<Page<SystemKind>> {
    return mapPage(await this.kinds.crud.findPage(query), toSystemKind);
  }

  get(id: string): Promise<SystemKind> {
    return this.kinds.crud.getActivePrepared(id).then(toSystemKind);
  }

  create(input: CreateSystemKind, actor: AuthUser): Promise<SystemKind> {
    return this.tx.run(async (m) => toSystemKind(await this.kinds.crud.insert(input, actor.id, m)));
  }

  update(
    id: string,
    input: UpdateSystemKind,
    ifMatch: number | undefined,
    actor: AuthUser,
  ): Promise<SystemKind> {
    const { changes, version } = splitUpdate(input, ifMatch);
    return this.tx.run(async (m) => {
      if (changes.code !== undefined) {
        // A new code must still fit the kinds of the datasets under the kind (locked first).
        const current = await this.kinds.crud.getActive(id, m, 'update');
        if (current.code !== changes.code) {
          assertDatasetKindsFit(await datasetKindsWithin('kind', id, m), changes.code);
        }
      }
      return toSystemKind(await this.kinds.crud.update(id, changes, version, actor.id, m));
    });
  }

  /** Refused while active flavors belong to the kind; the row lock keeps a new flavor from slipping in. */
  remove(id: string, actor: AuthUser): Promise<SystemKind> {
    return this.tx.run(async (m) => {
      await this.kinds.crud.getActive(id, m, 'update');
      if ((await this.kinds.countActiveFlavors(id, m)) > 0) throw new AppError('HAS_DEPENDENT_ENTITIES');
      return toSystemKind(await this.kinds.crud.softDelete(id, actor.id, m));
    });
  }

  restore(id: string, actor: AuthUser): Promise<SystemKind> {
    return this.tx.run(async (m) => toSystemKind(await this.kinds.crud.restore(id, actor.id, m)));
  }
}
