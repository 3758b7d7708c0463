import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { CrudRepository } from '../../common/crud/crud-repository.js';
import { registerConstraintCodes } from '../../common/errors/db-error.js';
import { TypeInstanceEntity } from './type-instance.entity.js';
import { MAX_TYPE_TREE_DEPTH, type StoredTypeNode } from './type-tree-rules.js';

registerConstraintCodes({
  uq_type_instances_parent_slot: 'TYPE_INSTANCE_SLOT_ALREADY_EXISTS',
  fk_type_instances_data_type: 'DATA_TYPE_NOT_FOUND',
  fk_type_instances_parent: 'TYPE_INSTANCE_PARENT_NOT_FOUND',
});

/** The part of a node that trees are built and rendered from. */
export type TypeTreeRow = Pick<
  TypeNodeRow,
  | 'id'
  | 'parent_id'
  | 'depth'
  | 'data_type_id'
  | 'type_params'
  | 'slot'
  | 'data_type_code'
  | 'render_template'
>;

/** A type-instance node with its data type's code and template, as read for trees and rendering. */
export interface TypeNodeRow extends TypeInstanceEntity, StoredTypeNode {
  data_type_code: string;
  data_type_flavor_id: string;
  render_template: string | null;
  depth: number;
}

@Injectable()
export class TypeInstancesRepository {
  readonly crud: CrudRepository<TypeInstanceEntity>;

  constructor(dataSource: DataSource) {
    this.crud = new CrudRepository({
      dataSource,
      entity: TypeInstanceEntity,
      notFound: 'TYPE_INSTANCE_NOT_FOUND',
      softDelete: false,
    });
  }

  /**
   * The subtrees under the given roots (roots included), in one recursive query. Rows go one level
   * past MAX_TYPE_TREE_DEPTH (depth is 0 at a root), so that a tree stored deeper than the limit is
   * seen as such instead of cut.
   */
  async subtrees(rootIds: readonly string[], manager?: EntityManager): Promise<TypeNodeRow[]> {
    if (rootIds.length === 0) return [];
    return (manager ?? this.crud.repo().manager).query(
      `WITH RECURSIVE tree AS (
         SELECT t.*, 0 AS depth FROM type_instances t WHERE t.id = ANY($1::uuid[])
         UNION ALL
         SELECT c.*, tree.depth + 1 FROM type_instances c JOIN tree ON c.parent_id = tree.id WHERE tree.depth < $2
       )
       SELECT tree.*, dt.code AS data_type_code, dt.system_flavor_id AS data_type_flavor_id, dt.render_template
       FROM tree JOIN data_types dt ON dt.id = tree.data_type_id
       ORDER BY tree.depth, tree.ordinal, tree.slot`,
      [rootIds, MAX_TYPE_TREE_DEPTH],
    );
  }

  /**
   * The trees bound by the columns of the given versions, as `subtrees` reads them (same roots, same
   * rows, same order) but with only the columns a tree is built and rendered from.
   */
  async subtreesOfSchemas(schemaIds: readonly string[], manager: EntityManager): Promise<TypeTreeRow[]> {
    if (schemaIds.length === 0) return [];
    return manager.query(
      `WITH RECURSIVE tree AS (
         SELECT t.id, t.parent_id, t.data_type_id, t.type_params, t.slot, t.ordinal, 0 AS depth
         FROM type_instances t
         -- ANY(ARRAY(…)): the roots are probed by primary key, never found by a hash join over every type instance.
         WHERE t.id = ANY(ARRAY(SELECT b.type_instance_id FROM field_bindings b WHERE b.dataset_schema_id = ANY($1::uuid[])))
         UNION ALL
         SELECT c.id, c.parent_id, c.data_type_id, c.type_params, c.slot, c.ordinal, tree.depth + 1
         FROM type_instances c JOIN tree ON c.parent_id = tree.id WHERE tree.depth < $2
       )
       SELECT tree.id, tree.parent_id, tree.depth, tree.data_type_id, tree.type_params, tree.slot,
              dt.code AS data_type_code, dt.render_template
       FROM tree JOIN data_types dt ON dt.id = tree.data_type_id
       ORDER BY tree.depth, tree.ordinal, tree.slot`,
      [schemaIds, MAX_TYPE_TREE_DEPTH],
    );
  }

  /** The flavor of each node's data type, by node id. */
  async flavorsOf(ids: readonly string[], manager: EntityManager): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows: { id: string; flavor_id: string }[] = await manager.query(
      `SELECT t.id, dt.system_flavor_id AS flavor_id
       FROM type_instances t JOIN data_types dt ON dt.id = t.data_type_id WHERE t.id = ANY($1::uuid[])`,
      [ids],
    );
    return new Map(rows.map((r) => [r.id, r.flavor_id]));
  }

  /** Whether the node's tree (its root) is bound to a field in some schema version. */
  async isInBoundTree(id: string, manager: EntityManager): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `WITH RECURSIVE up(id, parent_id, depth) AS (
         SELECT id, parent_id, 0 FROM type_instances WHERE id = $1
         UNION ALL
         SELECT t.id, t.parent_id, up.depth + 1 FROM type_instances t JOIN up ON t.id = up.parent_id WHERE up.depth < 64
       )
       SELECT 1 FROM field_bindings b JOIN up ON b.type_instance_id = up.id LIMIT 1`,
      [id],
    );
    return rows.length > 0;
  }
}
