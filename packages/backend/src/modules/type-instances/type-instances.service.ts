import type {
  CreateTypeInstance,
  ListQuery,
  Page,
  RenderedType,
  TypeInstance,
  TypeInstanceTree,
  UpdateTypeInstance,
} from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user.js';
import type { CrudService } from '../../common/crud/crud-service.js';
import { mapPage } from '../../common/crud/list.js';
import { splitUpdate } from '../../common/crud/update-input.js';
import { AppError } from '../../common/errors/app-error.js';
import { ancestryOf, treeSizes } from '../../common/crud/tree-queries.js';
import { Transactions } from '../../database/transactions.js';
import type { DataTypeEntity } from '../data-types/data-type.entity.js';
import { DataTypesLookup } from '../data-types/data-types.lookup.js';
import { validateTypeParams } from '../type-system/params-schema.js';
import type { TypeInstanceEntity } from './type-instance.entity.js';
import { toTypeInstance } from './type-instance.mapper.js';
import { TypeInstancesRepository } from './type-instances.repository.js';
import { buildTypeTrees, renderTypeText, toTypeInstanceTree, type TypeTreeNode } from './type-tree.js';
import { flavorMismatch } from '../system-flavors/flavor-mismatch.js';
import { MAX_TYPE_TREE_DEPTH, MAX_TYPE_TREE_NODES, treeTooDeep, treeTooLarge } from './type-tree-rules.js';

/** `params` validated against the data type's JSON Schema (defaults applied); null when empty. */
function validParams(
  dataType: DataTypeEntity,
  params: Record<string, unknown> | null | undefined,
): Record<string, unknown> | null {
  const result = validateTypeParams(dataType.params_schema, params ?? {});
  if (!result.ok) throw new AppError('TYPE_INSTANCE_PARAMS_INVALID', undefined, { issues: result.issues });
  return Object.keys(result.value).length > 0 ? result.value : null;
}

@Injectable()
export class TypeInstancesService implements CrudService<
  TypeInstance,
  CreateTypeInstance,
  UpdateTypeInstance
> {
  constructor(
    private readonly typeInstances: TypeInstancesRepository,
    private readonly dataTypes: DataTypesLookup,
    private readonly tx: Transactions,
  ) {}

  async list(query: ListQuery): Promise<Page<TypeInstance>> {
    return mapPage(await this.typeInstances.crud.findPage(query), toTypeInstance);
  }

  get(id: string): Promise<TypeInstance> {
    return this.typeInstances.crud.getActivePrepared(id).then(toTypeInstance);
  }

  /**
   * The data type must be active, of the node's flavor (a node never changes flavor, so a tree stays of
   * one), and the params valid against its JSON Schema; returns the stored params.
   */
  private async checkedParams(
    current: TypeInstanceEntity,
    dataTypeId: string,
    params: Record<string, unknown> | null | undefined,
    m: EntityManager,
  ): Promise<Record<string, unknown> | null> {
    const dataType = await this.dataTypes.lockActive(dataTypeId, m);
    const flavor = (await this.typeInstances.flavorsOf([current.id], m)).get(current.id);
    if (flavor !== undefined && flavor !== dataType.system_flavor_id) {
      throw flavorMismatch(`Data type '${dataType.code}' is of another flavor than the type instance's.`, {
        data_type: dataType.code,
        data_type_flavor_id: dataType.system_flavor_id,
        type_instance_flavor_id: flavor,
      });
    }
    return validParams(dataType, params);
  }

  /**
   * New children must keep their trees within MAX_TYPE_TREE_DEPTH levels and MAX_TYPE_TREE_NODES nodes,
   * so that reads never need to cut a tree. The roots are locked first (in id order), so concurrent
   * writes into one tree are counted one after the other.
   */
  private async assertTreeLimits(items: readonly CreateTypeInstance[], m: EntityManager): Promise<void> {
    const parentIds = [...new Set(items.flatMap((i) => (i.parent_id ? [i.parent_id] : [])))];
    const ancestry = await ancestryOf(m, 'type_instances', parentIds, MAX_TYPE_TREE_DEPTH);
    const added = new Map<string, number>();
    for (const parentId of items.flatMap((i) => (i.parent_id ? [i.parent_id] : []))) {
      const parent = ancestry.get(parentId);
      if (!parent) continue; // an unknown parent is TYPE_INSTANCE_PARENT_NOT_FOUND, below
      if (parent.level + 1 > MAX_TYPE_TREE_DEPTH) throw treeTooDeep(parent.level + 1);
      added.set(parent.rootId, (added.get(parent.rootId) ?? 0) + 1);
    }
    if (added.size === 0) return;
    const roots = [...added.keys()].sort();
    await m.query('SELECT id FROM type_instances WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE', [roots]);
    const sizes = await treeSizes(m, 'type_instances', roots, MAX_TYPE_TREE_DEPTH);
    for (const [root, count] of added) {
      if ((sizes.get(root) ?? 0) + count > MAX_TYPE_TREE_NODES) throw treeTooLarge();
    }
  }

  /** Checks new nodes against their parents and data types, loaded in bulk for the whole batch. */
  private async prepare(items: readonly CreateTypeInstance[], m: EntityManager) {
    await this.assertTreeLimits(items, m);
    const parents = await this.typeInstances.crud.findActiveMany(
      items.flatMap((i) => (i.parent_id ? [i.parent_id] : [])),
      m,
      'share',
    );
    const dataTypes = await this.dataTypes.lockActiveMany(
      items.map((i) => i.data_type_id),
      m,
    );
    const parentFlavors = await this.typeInstances.flavorsOf([...parents.keys()], m);
    const unbound = new Set<string>();
    const values = [];
    for (const input of items) {
      const parentId = input.parent_id ?? null;
      const slot = input.slot ?? null;
      if (parentId === null && slot !== null) throw new AppError('TYPE_INSTANCE_SLOT_FORBIDDEN');
      if (parentId !== null && slot === null) throw new AppError('TYPE_INSTANCE_SLOT_REQUIRED');
      if (parentId !== null) {
        if (!parents.has(parentId)) throw new AppError('TYPE_INSTANCE_PARENT_NOT_FOUND');
        // A new child would change a published version's type (a struct gains a member).
        if (!unbound.has(parentId)) {
          await this.assertNotBound(parentId, m);
          unbound.add(parentId);
        }
      }
      const dataType = dataTypes.get(input.data_type_id);
      if (!dataType) throw new AppError('DATA_TYPE_NOT_FOUND');
      const parentFlavor = parentId !== null ? parentFlavors.get(parentId) : undefined;
      if (parentFlavor !== undefined && parentFlavor !== dataType.system_flavor_id) {
        throw flavorMismatch(`Data type '${dataType.code}' is of another flavor than its parent's.`, {
          parent_id: parentId,
          data_type: dataType.code,
          data_type_flavor_id: dataType.system_flavor_id,
          parent_flavor_id: parentFlavor,
        });
      }
      values.push({
        ...input,
        parent_id: parentId,
        slot,
        type_params: validParams(dataType, input.type_params),
      });
    }
    return values;
  }

  create(input: CreateTypeInstance, actor: AuthUser): Promise<TypeInstance> {
    return this.tx.run(async (m) => {
      const [values] = await this.prepare([input], m);
      return toTypeInstance(await this.typeInstances.crud.insert(values, actor.id, m));
    });
  }

  /** All or nothing; parents must already exist (they are not looked up inside the batch). */
  createMany(items: CreateTypeInstance[], actor: AuthUser): Promise<TypeInstance[]> {
    return this.tx.run(async (m) =>
      (await this.typeInstances.crud.insertMany(await this.prepare(items, m), actor.id, m)).map(
        toTypeInstance,
      ),
    );
  }

  /**
   * Locks the node's root FOR UPDATE, before the node itself (as a new child's check does): a binding
   * share-locks the roots it binds and then checks that their trees are complete, so a change inside a
   * tree waits for a binding in progress and then finds the tree bound, or is seen by the binding.
   */
  private async lockRoot(id: string, m: EntityManager): Promise<void> {
    const root = (await ancestryOf(m, 'type_instances', [id], 2 * MAX_TYPE_TREE_DEPTH)).get(id)?.rootId;
    if (root !== undefined) await m.query('SELECT id FROM type_instances WHERE id = $1 FOR UPDATE', [root]);
  }

  /** A tree bound in a schema version is history: it cannot change. */
  private async assertNotBound(id: string, m: EntityManager): Promise<void> {
    if (await this.typeInstances.isInBoundTree(id, m)) {
      throw new AppError(
        'DATASET_SCHEMA_IMMUTABLE',
        'The type instance is part of a published schema version.',
      );
    }
  }

  update(
    id: string,
    input: UpdateTypeInstance,
    ifMatch: number | undefined,
    actor: AuthUser,
  ): Promise<TypeInstance> {
    const { changes, version } = splitUpdate(input, ifMatch);
    return this.tx.run(async (m) => {
      await this.lockRoot(id, m);
      const current = await this.typeInstances.crud.getActive(id, m, 'update');
      await this.assertNotBound(id, m);
      const values = { ...changes };
      if (changes.data_type_id !== undefined || changes.type_params !== undefined) {
        const params = changes.type_params !== undefined ? changes.type_params : current.type_params;
        values.type_params = await this.checkedParams(
          current,
          changes.data_type_id ?? current.data_type_id,
          params,
          m,
        );
      }
      return toTypeInstance(await this.typeInstances.crud.update(id, values, version, actor.id, m));
    });
  }

  /** Hard delete of the node and its subtree. */
  remove(id: string): Promise<TypeInstance> {
    return this.tx.run(async (m) => {
      await this.lockRoot(id, m);
      await this.typeInstances.crud.getActive(id, m, 'update');
      await this.assertNotBound(id, m);
      return toTypeInstance(await this.typeInstances.crud.hardDelete(id, m));
    });
  }

  private async treeOf(id: string): Promise<TypeTreeNode> {
    await this.typeInstances.crud.getActive(id);
    const node = buildTypeTrees(await this.typeInstances.subtrees([id])).get(id);
    if (!node) throw new AppError('TYPE_INSTANCE_NOT_FOUND');
    return node;
  }

  async tree(id: string): Promise<TypeInstanceTree> {
    return toTypeInstanceTree(await this.treeOf(id));
  }

  async render(id: string): Promise<RenderedType> {
    return { type_instance_id: id, rendered: renderTypeText(await this.treeOf(id)) };
  }
}
