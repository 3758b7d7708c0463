import type { CreateFieldBinding, FieldBinding, ListQuery, Page, UpdateFieldBinding } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user.js';
import { assertUniqueInBatch } from '../../common/crud/batch.js';
import type { CrudService } from '../../common/crud/crud-service.js';
import { mapPage } from '../../common/crud/list.js';
import { AppError, validationError } from '../../common/errors/app-error.js';
import { Transactions } from '../../database/transactions.js';
import { DatasetSchemasLookup } from '../dataset-schemas/dataset-schemas.lookup.js';
import { DatasetsLookup } from '../datasets/datasets.lookup.js';
import { FieldsLookup } from '../fields/fields.lookup.js';
import { TypeInstancesLookup } from '../type-instances/type-instances.lookup.js';
import { buildTypeTrees, renderColumnTypes } from '../type-instances/type-tree.js';
import { assertBindableTrees } from '../type-instances/type-tree-rules.js';
import { toFieldBinding } from './field-binding.mapper.js';
import { FieldBindingsRepository } from './field-bindings.repository.js';

/**
 * The granular binding routes of the original API. A version's bindings are written in one call (a
 * single create or one batch) while the version is empty; after that the version is history.
 */
@Injectable()
export class FieldBindingsService implements CrudService<
  FieldBinding,
  CreateFieldBinding,
  UpdateFieldBinding
> {
  constructor(
    private readonly bindings: FieldBindingsRepository,
    private readonly schemas: DatasetSchemasLookup,
    private readonly datasets: DatasetsLookup,
    private readonly fields: FieldsLookup,
    private readonly typeInstances: TypeInstancesLookup,
    private readonly tx: Transactions,
  ) {}

  async list(query: ListQuery): Promise<Page<FieldBinding>> {
    return mapPage(await this.bindings.crud.findPage(query), toFieldBinding);
  }

  get(id: string): Promise<FieldBinding> {
    return this.bindings.crud.getActivePrepared(id).then(toFieldBinding);
  }

  /**
   * Every field must belong to its version's dataset, every type must be a root, and every version must
   * still be empty. The bound trees obey the rules a publish enforces (type-tree-rules.ts): within the
   * limits, typed in the dataset's flavor (its own, else its system's), and complete. Loaded in bulk: a
   * batch costs the same few queries as one binding.
   */
  private async assertRefs(items: readonly CreateFieldBinding[], m: EntityManager): Promise<void> {
    const schemas = await this.schemas.lockActiveMany(
      items.map((i) => i.dataset_schema_id),
      m,
    );
    const fields = await this.fields.lockActiveMany(
      items.map((i) => i.field_id),
      m,
    );
    const types = await this.typeInstances.lockActiveMany(
      items.map((i) => i.type_instance_id),
      m,
    );
    const checked = new Set<string>();
    for (const item of items) {
      const schema = schemas.get(item.dataset_schema_id);
      if (!schema) throw new AppError('DATASET_SCHEMA_NOT_FOUND');
      if (!checked.has(schema.id)) {
        if (await this.schemas.hasBindings(schema.id, m)) throw new AppError('DATASET_SCHEMA_IMMUTABLE');
        checked.add(schema.id);
      }
      const field = fields.get(item.field_id);
      if (!field) throw new AppError('FIELD_NOT_FOUND');
      if (field.dataset_id !== schema.dataset_id) throw new AppError('SCHEMA_DATASET_MISMATCH');
      const type = types.get(item.type_instance_id);
      if (!type) throw new AppError('TYPE_INSTANCE_NOT_FOUND');
      if (type.parent_id !== null) {
        throw validationError([{ path: ['type_instance_id'], message: 'must be a root type instance' }]);
      }
    }
    // The roots are share-locked above, so no node can be added to these trees before this commits.
    const flavorOfDataset = await this.datasets.flavorIdsOf(
      [...schemas.values()].map((s) => s.dataset_id),
      m,
    );
    // A root may be bound more than once in a batch: it must be of every flavor it is bound under.
    const flavorsOfRoot = new Map<string, Set<string>>();
    for (const item of items) {
      const datasetId = (schemas.get(item.dataset_schema_id) as { dataset_id: string }).dataset_id;
      const flavors = flavorsOfRoot.get(item.type_instance_id) ?? new Set<string>();
      flavors.add(flavorOfDataset.get(datasetId) as string);
      flavorsOfRoot.set(item.type_instance_id, flavors);
    }
    const rows = await this.typeInstances.subtrees([...flavorsOfRoot.keys()], m);
    assertBindableTrees(rows, flavorsOfRoot);
    // The call binds each version whole (it was empty) and makes its trees immutable: they must read
    // as every read of the version will read them, complete (a tree built parent first may not be yet).
    const trees = buildTypeTrees(rows);
    const columnsOf = new Map<string, CreateFieldBinding[]>();
    for (const item of items) {
      const key = item.dataset_schema_id.toLowerCase();
      columnsOf.set(key, [...(columnsOf.get(key) ?? []), item]);
    }
    for (const columns of columnsOf.values()) {
      renderColumnTypes(
        columns
          .sort((a, b) => a.position - b.position)
          .map((c) => trees.get(c.type_instance_id.toLowerCase()) ?? null),
      );
    }
  }

  create(input: CreateFieldBinding, actor: AuthUser): Promise<FieldBinding> {
    return this.tx.run(async (m) => {
      await this.assertRefs([input], m);
      return toFieldBinding(await this.bindings.crud.insert(input, actor.id, m));
    });
  }

  createMany(items: CreateFieldBinding[], actor: AuthUser): Promise<FieldBinding[]> {
    assertUniqueInBatch(
      items,
      (i) => `${i.dataset_schema_id}/${i.field_id}`,
      'FIELD_BINDING_FIELD_ID_ALREADY_EXISTS',
    );
    assertUniqueInBatch(
      items,
      (i) => `${i.dataset_schema_id}/${i.position}`,
      'FIELD_BINDING_POSITION_ALREADY_EXISTS',
    );
    return this.tx.run(async (m) => {
      await this.assertRefs(items, m);
      return (await this.bindings.crud.insertMany(items, actor.id, m)).map(toFieldBinding);
    });
  }

  async update(id: string): Promise<FieldBinding> {
    await this.bindings.crud.getActive(id);
    throw new AppError(
      'DATASET_SCHEMA_IMMUTABLE',
      'A binding is part of a published version and cannot change.',
    );
  }

  async remove(id: string): Promise<FieldBinding> {
    await this.bindings.crud.getActive(id);
    throw new AppError(
      'DATASET_SCHEMA_IMMUTABLE',
      'A binding is part of a published version and cannot be deleted.',
    );
  }
}
