import {
  type CreateDataset,
  DATASET_KIND_ATTRIBUTES,
  type Dataset,
  type DatasetKind,
  type ListQuery,
  type Page,
  type UpdateDataset,
} from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user.js';
import type { CrudService } from '../../common/crud/crud-service.js';
import { mapPage } from '../../common/crud/list.js';
import { splitByTable } from '../../common/crud/polymorphic.js';
import { splitUpdate } from '../../common/crud/update-input.js';
import { AppError } from '../../common/errors/app-error.js';
import { Transactions } from '../../database/transactions.js';
import { DatasetLinksRepository } from '../dataset-links/dataset-links.repository.js';
import { SystemsRepository } from '../systems/systems.repository.js';
import type { DatasetEntity } from './dataset.entity.js';
import { toDataset } from './dataset.mapper.js';
import { DatasetsRepository } from './datasets.repository.js';

function splitByKind(kind: DatasetKind, body: Record<string, unknown>) {
  return splitByTable<DatasetEntity>(Object.keys(DATASET_KIND_ATTRIBUTES[kind]), body);
}

@Injectable()
export class DatasetsService implements CrudService<Dataset, CreateDataset, UpdateDataset> {
  constructor(
    private readonly datasets: DatasetsRepository,
    private readonly systems: SystemsRepository,
    private readonly links: DatasetLinksRepository,
    private readonly tx: Transactions,
  ) {}

  async list(query: ListQuery): Promise<Page<Dataset>> {
    return mapPage(await this.datasets.findPage(query), toDataset);
  }

  async get(id: string): Promise<Dataset> {
    return toDataset(await this.datasets.getWithDetails(id));
  }

  private async assertSystem(systemId: string, m: EntityManager): Promise<void> {
    if (!(await this.systems.crud.findActive(systemId, m, 'share'))) throw new AppError('SYSTEM_NOT_FOUND');
  }

  create(input: CreateDataset, actor: AuthUser): Promise<Dataset> {
    const { common, details } = splitByKind(input.kind, input);
    return this.tx.run(async (m) => {
      await this.assertSystem(input.system_id, m);
      const row = await this.datasets.crud.insert({ ...common, kind: input.kind }, actor.id, m);
      await this.datasets.insertDetails(input.kind, row.id, details, m);
      return toDataset(await this.datasets.getWithDetails(row.id, m));
    });
  }

  /** `kind` must match the stored kind; `system_id` never changes. */
  update(id: string, input: UpdateDataset, ifMatch: number | undefined, actor: AuthUser): Promise<Dataset> {
    const { changes, version } = splitUpdate(input, ifMatch);
    const { common, details } = splitByKind(input.kind, changes);
    return this.tx.run(async (m) => {
      const current = await this.datasets.crud.getActive(id, m);
      if (current.kind !== input.kind) throw new AppError('DATASET_KIND_MISMATCH');
      await this.datasets.crud.update(id, common, version, actor.id, m);
      await this.datasets.updateDetails(input.kind, id, details, m);
      return toDataset(await this.datasets.getWithDetails(id, m));
    });
  }

  /**
   * Soft delete, refused while an active dataset link has the dataset on either side; fields, versions
   * and bindings stay and come back on restore.
   */
  remove(id: string, actor: AuthUser): Promise<Dataset> {
    return this.tx.run(async (m) => {
      // Locked first: a link being created holds the dataset FOR SHARE, so the count below is final.
      await this.datasets.crud.getActive(id, m, 'update');
      const links = await this.links.countActiveForDataset(id, m);
      if (links > 0) throw new AppError('DATASET_HAS_ACTIVE_LINKS', undefined, { dataset_links: links });
      await this.datasets.crud.softDelete(id, actor.id, m);
      return toDataset((await this.datasets.findWithDetails(id, m, true)) as DatasetEntity);
    });
  }

  restore(id: string, actor: AuthUser): Promise<Dataset> {
    return this.tx.run(async (m) => {
      const row = await this.datasets.crud.findAny(id, m);
      if (row?.deleted_at) await this.assertSystem(row.system_id, m);
      await this.datasets.crud.restore(id, actor.id, m);
      return toDataset(await this.datasets.getWithDetails(id, m));
    });
  }
}
