import type { CreateSystem, ListQuery, Page, System, SystemDatasetCounts, UpdateSystem } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user.js';
import type { CrudService } from '../../common/crud/crud-service.js';
import { assertUniqueInBatch } from '../../common/crud/batch.js';
import { mapPage } from '../../common/crud/list.js';
import { splitUpdate } from '../../common/crud/update-input.js';
import { AppError } from '../../common/errors/app-error.js';
import { Transactions } from '../../database/transactions.js';
import { CredentialRefsLookup } from '../credential-refs/credential-refs.lookup.js';
import { flavorMismatch } from '../system-flavors/flavor-mismatch.js';
import { SystemFlavorsLookup } from '../system-flavors/system-flavors.lookup.js';
import { assertDatasetKindsFit, datasetKindsWithin } from '../system-kinds/dataset-kind-rules.js';
import { toSystem } from './system.mapper.js';
import { SystemsRepository } from './systems.repository.js';

@Injectable()
export class SystemsService implements CrudService<System, CreateSystem, UpdateSystem> {
  constructor(
    private readonly systems: SystemsRepository,
    private readonly flavors: SystemFlavorsLookup,
    private readonly credentialRefs: CredentialRefsLookup,
    private readonly tx: Transactions,
  ) {}

  async list(query: ListQuery): Promise<Page<System>> {
    return mapPage(await this.systems.crud.findPage(query), toSystem);
  }

  /** `GET /systems/dataset-counts`: active datasets per system, in the order asked (one statement). */
  async datasetCounts(ids: readonly string[]): Promise<SystemDatasetCounts> {
    const counts = await this.tx.run((m) => this.systems.countActiveDatasetsOf(ids, m));
    const seen = new Set<string>();
    const items: SystemDatasetCounts['items'] = [];
    for (const id of ids.map((i) => i.toLowerCase())) {
      const n = counts.get(id);
      if (n === undefined || seen.has(id)) continue;
      seen.add(id);
      items.push({ system_id: id, dataset_count: n });
    }
    return { items };
  }

  get(id: string): Promise<System> {
    return this.systems.crud.getActivePrepared(id).then(toSystem);
  }

  /** Parents must be active; share locks keep them from being deleted before this commits. */
  private async assertParents(
    input: { flavor_id?: string | undefined; credential_ref_id?: string | null | undefined },
    m: EntityManager,
  ): Promise<void> {
    if (input.flavor_id !== undefined) await this.flavors.lockActive(input.flavor_id, m);
    const ref = input.credential_ref_id;
    if (ref !== undefined && ref !== null) await this.credentialRefs.lockActive(ref, m);
  }

  create(input: CreateSystem, actor: AuthUser): Promise<System> {
    return this.tx.run(async (m) => {
      await this.assertParents(input, m);
      return toSystem(await this.systems.crud.insert(input, actor.id, m));
    });
  }

  /** All or nothing: one transaction, parents loaded in bulk, one INSERT. */
  createMany(items: CreateSystem[], actor: AuthUser): Promise<System[]> {
    assertUniqueInBatch(items, (item) => item.code, 'SYSTEM_ALREADY_EXISTS');
    return this.tx.run(async (m) => {
      const flavors = await this.flavors.lockActiveMany(
        items.map((i) => i.flavor_id),
        m,
      );
      const refIds = items.flatMap((i) => (i.credential_ref_id ? [i.credential_ref_id] : []));
      const refs = await this.credentialRefs.lockActiveMany(refIds, m);
      for (const item of items) {
        if (!flavors.has(item.flavor_id)) throw new AppError('SYSTEM_FLAVOR_NOT_FOUND');
        if (item.credential_ref_id && !refs.has(item.credential_ref_id))
          throw new AppError('CREDENTIAL_REF_NOT_FOUND');
      }
      return (await this.systems.crud.insertMany(items, actor.id, m)).map(toSystem);
    });
  }

  update(id: string, input: UpdateSystem, ifMatch: number | undefined, actor: AuthUser): Promise<System> {
    const { changes, version } = splitUpdate(input, ifMatch);
    return this.tx.run(async (m) => {
      await this.assertParents(changes, m);
      if (changes.flavor_id !== undefined) await this.assertFlavorChange(id, changes.flavor_id, m);
      return toSystem(await this.systems.crud.update(id, changes, version, actor.id, m));
    });
  }

  /**
   * A new flavor must keep the system's datasets valid: its kind must fit their kinds, and it is
   * refused while they have published versions, whose type trees are of the current flavor (ADR 0010).
   * The system row is locked first, so no dataset or version can be added before this commits.
   */
  private async assertFlavorChange(id: string, flavorId: string, m: EntityManager): Promise<void> {
    const current = await this.systems.crud.getActive(id, m, 'update');
    if (current.flavor_id === flavorId) return;
    const kindCode = await this.flavors.kindCodeOf(flavorId, m);
    if (kindCode === undefined) throw new AppError('SYSTEM_FLAVOR_NOT_FOUND');
    assertDatasetKindsFit(await datasetKindsWithin('system', id, m), kindCode);
    if (await this.systems.hasBoundVersions(id, m)) {
      throw flavorMismatch(
        "The system's datasets have published schema versions typed in its current flavor: its flavor cannot change.",
        { system_id: id, system_flavor_id: current.flavor_id, requested_flavor_id: flavorId },
      );
    }
  }

  remove(id: string, actor: AuthUser): Promise<System> {
    return this.tx.run(async (m) => {
      await this.systems.crud.getActive(id, m, 'update');
      if ((await this.systems.countActiveDatasets(id, m)) > 0) throw new AppError('HAS_DEPENDENT_ENTITIES');
      // Connection profiles export the system's endpoint (DataCoolie connections).
      if ((await this.systems.countActiveConnectionProfiles(id, m)) > 0)
        throw new AppError('HAS_DEPENDENT_ENTITIES');
      return toSystem(await this.systems.crud.softDelete(id, actor.id, m));
    });
  }

  restore(id: string, actor: AuthUser): Promise<System> {
    return this.tx.run(async (m) => {
      const row = await this.systems.crud.findAny(id, m);
      if (row?.deleted_at) await this.assertParents(row, m);
      return toSystem(await this.systems.crud.restore(id, actor.id, m));
    });
  }
}
