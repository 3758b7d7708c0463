import type { CreateSystemFlavor, ListQuery, Page, SystemFlavor, UpdateSystemFlavor } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user.js';
import { mapPage } from '../../common/crud/list.js';
import { splitUpdate } from '../../common/crud/update-input.js';
import { AppError } from '../../common/errors/app-error.js';
import { Transactions } from '../../database/transactions.js';
import { assertDatasetKindsFit, datasetKindsWithin } from '../system-kinds/dataset-kind-rules.js';
import { SystemKindsLookup } from '../system-kinds/system-kinds.lookup.js';
import { toSystemFlavor } from './system-flavor.mapper.js';
import { SystemFlavorsRepository } from './system-flavors.repository.js';

@Injectable()
export class SystemFlavorsService {
  constructor(
    private readonly flavors: SystemFlavorsRepository,
    private readonly kinds: SystemKindsLookup,
    private readonly tx: Transactions,
  ) {}

  async list(query: ListQuery): Promise<Page<SystemFlavor>> {
    return mapPage(await this.flavors.crud.findPage(query), toSystemFlavor);
  }

  get(id: string): Promise<SystemFlavor> {
    return this.flavors.crud.getActivePrepared(id).then(toSystemFlavor);
  }

  /** The kind must be active; the share lock keeps it from being deleted before this commits. */
  private async assertKind(kindId: string, m: EntityManager): Promise<void> {
    await this.kinds.lockActive(kindId, m);
  }

  create(input: CreateSystemFlavor, actor: AuthUser): Promise<SystemFlavor> {
    return this.tx.run(async (m) => {
      await this.assertKind(input.kind_id, m);
      return toSystemFlavor(await this.flavors.crud.insert(input, actor.id, m));
    });
  }

  update(
    id: string,
    input: UpdateSystemFlavor,
    ifMatch: number | undefined,
    actor: AuthUser,
  ): Promise<SystemFlavor> {
    const { changes, version } = splitUpdate(input, ifMatch);
    return this.tx.run(async (m) => {
      if (changes.kind_id !== undefined) {
        await this.assertKind(changes.kind_id, m);
        // Locked first: no system or dataset can be added under the flavor before this commits.
        const current = await this.flavors.crud.getActive(id, m, 'update');
        if (current.kind_id !== changes.kind_id) {
          const kind = await this.kinds.requireActive(changes.kind_id, m);
          assertDatasetKindsFit(await datasetKindsWithin('flavor', id, m), kind.code);
        }
      }
      return toSystemFlavor(await this.flavors.crud.update(id, changes, version, actor.id, m));
    });
  }

  /** Refused while active systems or data types belong to the flavor. */
  remove(id: string, actor: AuthUser): Promise<SystemFlavor> {
    return this.tx.run(async (m) => {
      await this.flavors.crud.getActive(id, m, 'update');
      if ((await this.flavors.countActiveDependants(id, m)) > 0) throw new AppError('HAS_DEPENDENT_ENTITIES');
      return toSystemFlavor(await this.flavors.crud.softDelete(id, actor.id, m));
    });
  }

  restore(id: string, actor: AuthUser): Promise<SystemFlavor> {
    return this.tx.run(async (m) => {
      const row = await this.flavors.crud.findAny(id, m);
      // A flavor cannot come back under a deleted kind.
      if (row && row.deleted_at) await this.assertKind(row.kind_id, m);
      return toSystemFlavor(await this.flavors.crud.restore(id, actor.id, m));
    });
  }
}
