import {
  type CreateDatasetLink,
  type DatasetLink,
  ENGINE_LINK_COMPATIBILITY,
  type ListQuery,
  type Page,
  type UpdateDatasetLink,
} from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user.js';
import type { CrudService } from '../../common/crud/crud-service.js';
import { mapPage } from '../../common/crud/list.js';
import { splitUpdate } from '../../common/crud/update-input.js';
import { AppError } from '../../common/errors/app-error.js';
import { Transactions } from '../../database/transactions.js';
import { DatasetSchemasLookup } from '../dataset-schemas/dataset-schemas.lookup.js';
import type { DatasetEntity } from '../datasets/dataset.entity.js';
import { DatasetsLookup } from '../datasets/datasets.lookup.js';
import { EnginesLookup } from '../engines/engines.lookup.js';
import type { DatasetLinkEntity } from './dataset-link.entity.js';
import { toDatasetLink } from './dataset-link.mapper.js';
import { assertLinkLayers } from './link-layers.js';
import { DatasetLinksRepository } from './dataset-links.repository.js';

type Side = 'source' | 'target';

/** Both datasets layered, the target's layer strictly after the source's (AIDE v2 §4.8). */
const assertLayers = (source: DatasetEntity, target: DatasetEntity): void =>
  assertLinkLayers(source.layer, target.layer);

@Injectable()
export class DatasetLinksService implements CrudService<DatasetLink, CreateDatasetLink, UpdateDatasetLink> {
  constructor(
    private readonly links: DatasetLinksRepository,
    private readonly datasets: DatasetsLookup,
    private readonly schemas: DatasetSchemasLookup,
    private readonly engines: EnginesLookup,
    private readonly tx: Transactions,
  ) {}

  async list(query: ListQuery): Promise<Page<DatasetLink>> {
    return mapPage(await this.links.crud.findPage(query), toDatasetLink);
  }

  get(id: string): Promise<DatasetLink> {
    return this.links.crud.getActivePrepared(id).then(toDatasetLink);
  }

  /** Both datasets, active, locked against a concurrent delete until the transaction ends. */
  private async lockDatasets(sourceId: string, targetId: string, m: EntityManager) {
    const found = await this.datasets.lockActiveMany([sourceId, targetId], m);
    const source = found.get(sourceId);
    const target = found.get(targetId);
    if (!source || !target) {
      throw new AppError('DATASET_NOT_FOUND', undefined, { dataset_id: source ? targetId : sourceId });
    }
    return { source, target };
  }

  /** The pinned version exists and belongs to the dataset of its side. */
  private async assertPin(schemaId: string, datasetId: string, side: Side, m: EntityManager): Promise<void> {
    const schema = await this.schemas.lockIfActive(schemaId, m);
    if (!schema) throw new AppError('DATASET_SCHEMA_NOT_FOUND', undefined, { side, schema_id: schemaId });
    if (schema.dataset_id !== datasetId) {
      throw new AppError('SCHEMA_DATASET_MISMATCH', undefined, { side, schema_id: schemaId });
    }
  }

  /** The engine exists and may drive this hop: (engine role, source kind → target kind) is allowed. */
  private async assertEngine(
    engineId: string,
    source: DatasetEntity,
    target: DatasetEntity,
    m: EntityManager,
  ): Promise<void> {
    const engine = await this.engines.lockIfActive(engineId, m);
    if (!engine) throw new AppError('ENGINE_NOT_FOUND');
    const allowed = ENGINE_LINK_COMPATIBILITY.some(
      (c) => c.role === engine.role && c.source_kind === source.kind && c.target_kind === target.kind,
    );
    if (!allowed) {
      throw new AppError('ENGINE_INCOMPATIBLE_LINK', undefined, {
        engine_role: engine.role,
        source_kind: source.kind,
        target_kind: target.kind,
      });
    }
  }

  private async assertPairFree(
    link: Pick<DatasetLinkEntity, 'source_dataset_id' | 'target_dataset_id'>,
    exceptId: string | null,
    m: EntityManager,
  ) {
    if (await this.links.activePairExists(link.source_dataset_id, link.target_dataset_id, exceptId, m)) {
      throw new AppError('DATASET_LINK_ALREADY_EXISTS');
    }
  }

  /** The original's checks, in its order (AIDE v2 §4.8); an engine may be attached at once. */
  create(input: CreateDatasetLink, actor: AuthUser): Promise<DatasetLink> {
    if (input.source_dataset_id === input.target_dataset_id)
      throw new AppError('DATASET_LINK_SELF_REFERENCE');
    return this.tx.run(async (m) => {
      const { source, target } = await this.lockDatasets(input.source_dataset_id, input.target_dataset_id, m);
      assertLayers(source, target);
      await this.assertPairFree(input, null, m);
      await this.assertPin(input.source_schema_id, source.id, 'source', m);
      await this.assertPin(input.target_schema_id, target.id, 'target', m);
      if (input.engine_id) await this.assertEngine(input.engine_id, source, target, m);
      return toDatasetLink(await this.links.crud.insert(input, actor.id, m));
    });
  }

  /** Re-pins a side, attaches an engine (checked against the matrix) or detaches it (null). */
  update(
    id: string,
    input: UpdateDatasetLink,
    ifMatch: number | undefined,
    actor: AuthUser,
  ): Promise<DatasetLink> {
    const { changes, version } = splitUpdate(input, ifMatch);
    return this.tx.run(async (m) => {
      const current = await this.links.crud.getActive(id, m);
      if (changes.source_schema_id) {
        await this.assertPin(changes.source_schema_id, current.source_dataset_id, 'source', m);
      }
      if (changes.target_schema_id) {
        await this.assertPin(changes.target_schema_id, current.target_dataset_id, 'target', m);
      }
      if (changes.engine_id) {
        const { source, target } = await this.lockDatasets(
          current.source_dataset_id,
          current.target_dataset_id,
          m,
        );
        await this.assertEngine(changes.engine_id, source, target, m);
      }
      return toDatasetLink(await this.links.crud.update(id, changes, version, actor.id, m));
    });
  }

  /** Soft delete; its field links stay and come back with it. */
  remove(id: string, actor: AuthUser): Promise<DatasetLink> {
    return this.tx.run(async (m) => toDatasetLink(await this.links.crud.softDelete(id, actor.id, m)));
  }

  /**
   * Restore re-checks what may have changed while the link was deleted (the original re-checks
   * nothing and answers 500 on a reused pair): both datasets still active and ordered by layer, the pair
   * not taken by another active link, its engine still there.
   */
  restore(id: string, actor: AuthUser): Promise<DatasetLink> {
    return this.tx.run(async (m) => {
      const row = await this.links.crud.findAny(id, m);
      if (row?.deleted_at) {
        const { source, target } = await this.lockDatasets(row.source_dataset_id, row.target_dataset_id, m);
        assertLayers(source, target);
        await this.assertPairFree(row, id, m);
        if (row.engine_id && !(await this.engines.lockIfActive(row.engine_id, m))) {
          throw new AppError('ENGINE_NOT_FOUND', 'The engine of this link was deleted: restore it first.', {
            engine_id: row.engine_id,
          });
        }
      }
      return toDatasetLink(await this.links.crud.restore(id, actor.id, m));
    });
  }
}
