import type { CreateField, Field, FieldOrigin, FieldTree, ListQuery, Page, UpdateField } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user.js';
import { assertUniqueInBatch } from '../../common/crud/batch.js';
import type { CrudService } from '../../common/crud/crud-service.js';
import { mapPage } from '../../common/crud/list.js';
import { splitUpdate } from '../../common/crud/update-input.js';
import { AppError } from '../../common/errors/app-error.js';
import { ancestryOf, subtreeHeight } from '../../common/crud/tree-queries.js';
import { Transactions } from '../../database/transactions.js';
import { DatasetsLookup } from '../datasets/datasets.lookup.js';
import { toField, toFieldTrees } from './field.mapper.js';
import { fieldTooDeep, MAX_FIELD_DEPTH } from './field-limits.js';
import { FieldsRepository } from './fields.repository.js';

@Injectable()
export class FieldsService implements CrudService<Field, CreateField, UpdateField> {
  constructor(
    private readonly fields: FieldsRepository,
    private readonly datasets: DatasetsLookup,
    private readonly tx: Transactions,
  ) {}

  async list(query: ListQuery): Promise<Page<Field>> {
    return mapPage(await this.fields.crud.findPage(query), toField);
  }

  get(id: string): Promise<Field> {
    return this.fields.crud.getActivePrepared(id).then(toField);
  }

  async tree(datasetId: string): Promise<FieldTree[]> {
    await this.datasets.requireActive(datasetId);
    return toFieldTrees(await this.fields.findByDataset(datasetId), MAX_FIELD_DEPTH);
  }

  async children(id: string): Promise<Field[]> {
    await this.fields.crud.getActive(id);
    return (await this.fields.findChildren(id)).map(toField);
  }

  private async assertDataset(datasetId: string, m: EntityManager): Promise<void> {
    await this.datasets.lockActive(datasetId, m);
  }

  /** Children of these parents, `height` levels tall, must stay within MAX_FIELD_DEPTH levels. */
  private async assertDepth(parentIds: readonly string[], height: number, m: EntityManager): Promise<void> {
    const ancestry = await ancestryOf(m, 'fields', [...new Set(parentIds)], MAX_FIELD_DEPTH);
    for (const { level } of ancestry.values()) {
      if (level + height > MAX_FIELD_DEPTH) throw fieldTooDeep(level + height);
    }
  }

  private async assertParent(parentId: string, datasetId: string, m: EntityManager): Promise<void> {
    const parent = await this.fields.crud.findActive(parentId, m, 'share');
    if (!parent) throw new AppError('FIELD_PARENT_NOT_FOUND');
    if (parent.dataset_id !== datasetId) throw new AppError('FIELD_PARENT_DATASET_MISMATCH');
  }

  create(input: CreateField, actor: AuthUser): Promise<Field> {
    return this.tx.run(async (m) => {
      await this.assertDataset(input.dataset_id, m);
      if (input.parent_id) {
        await this.assertParent(input.parent_id, input.dataset_id, m);
        await this.assertDepth([input.parent_id], 1, m);
      }
      return toField(await this.fields.crud.insert(input, actor.id, m));
    });
  }

  /** All or nothing; parents must already exist (they are not looked up inside the batch). */
  createMany(items: CreateField[], actor: AuthUser): Promise<Field[]> {
    assertUniqueInBatch(
      items,
      (i) => `${i.dataset_id}/${i.parent_id ?? ''}/${i.name}`,
      'FIELD_ALREADY_EXISTS',
    );
    return this.tx.run(async (m) => {
      for (const datasetId of new Set(items.map((i) => i.dataset_id))) await this.assertDataset(datasetId, m);
      const parentIds = items.flatMap((i) => (i.parent_id ? [i.parent_id] : []));
      const parents = await this.fields.crud.findActiveMany(parentIds, m, 'share');
      for (const item of items) {
        if (!item.parent_id) continue;
        const parent = parents.get(item.parent_id);
        if (!parent) throw new AppError('FIELD_PARENT_NOT_FOUND');
        if (parent.dataset_id !== item.dataset_id) throw new AppError('FIELD_PARENT_DATASET_MISMATCH');
      }
      await this.assertDepth(parentIds, 1, m);
      return (await this.fields.crud.insertMany(items, actor.id, m)).map(toField);
    });
  }

  update(id: string, input: UpdateField, ifMatch: number | undefined, actor: AuthUser): Promise<Field> {
    const { changes, version } = splitUpdate(input, ifMatch);
    return this.tx.run(async (m) => {
      const changesOrigin = changes.origin !== undefined;
      // Locked when the origin changes: a field link being added holds the target FOR SHARE.
      const current = await this.fields.crud.getActive(id, m, changesOrigin ? 'update' : undefined);
      if (changesOrigin)
        await this.assertOriginTransition(current.origin, changes.origin as FieldOrigin, id, m);
      const renames = changes.name !== undefined && changes.name !== current.name;
      const moves = changes.parent_id !== undefined && changes.parent_id !== current.parent_id;
      // Published versions show the field by name and place: those are history once it is bound.
      if ((renames || moves) && (await this.fields.isBound(id, m))) {
        throw new AppError(
          'DATASET_SCHEMA_IMMUTABLE',
          'A field of a published version cannot be renamed or moved.',
        );
      }
      if (changes.parent_id) {
        await this.fields.lockTree(current.dataset_id, m);
        await this.assertParent(changes.parent_id, current.dataset_id, m);
        // The new parent may not be the field itself or one of its descendants. Checked under the
        // tree lock, so it sees every move committed before this one.
        if (await this.fields.isAncestorOrSelf(id, changes.parent_id, m)) {
          throw new AppError('FIELD_CIRCULAR_REFERENCE');
        }
        await this.assertDepth([changes.parent_id], await subtreeHeight(m, 'fields', id, MAX_FIELD_DEPTH), m);
      }
      return toField(await this.fields.crud.update(id, changes, version, actor.id, m));
    });
  }

  /**
   * The origin lifecycle (AIDE v2 §4.6): a mapped field leaves `mapped` only when no field link feeds
   * it, and comes back to `mapped` only when one does; `tech` ⇄ `deprecated` is always allowed. Only
   * links of active dataset links count (a deleted link feeds nothing).
   */
  private async assertOriginTransition(
    from: FieldOrigin,
    to: FieldOrigin,
    id: string,
    m: EntityManager,
  ): Promise<void> {
    if (from === to || (from !== 'mapped' && to !== 'mapped')) return;
    const inbound = await this.fields.countActiveInboundLinks(id, m);
    if (from === 'mapped' && inbound > 0) {
      throw new AppError(
        'FIELD_ORIGIN_CONFLICT',
        `A field fed by field links stays mapped: remove its ${inbound} inbound link(s) first.`,
        { from, to, inbound_field_links: inbound },
      );
    }
    if (to === 'mapped' && inbound === 0) {
      throw new AppError('FIELD_ORIGIN_CONFLICT', 'A field becomes mapped only once a field link feeds it.', {
        from,
        to,
        inbound_field_links: 0,
      });
    }
  }

  /**
   * Hard delete: children and classifications go with it. A field bound in a schema version (itself or
   * a descendant) is part of that version's history and cannot be deleted: the cascade would remove
   * columns from published, immutable versions.
   */
  remove(id: string): Promise<Field> {
    return this.tx.run(async (m) => {
      await this.fields.crud.getActive(id, m, 'update');
      if (await this.fields.isBound(id, m)) {
        throw new AppError(
          'DATASET_SCHEMA_IMMUTABLE',
          'The field is bound in a published schema version and cannot be deleted.',
        );
      }
      return toField(await this.fields.crud.hardDelete(id, m));
    });
  }
}
