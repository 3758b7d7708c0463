import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { CrudRepository } from '../../common/crud/crud-repository.js';
import { registerConstraintCodes } from '../../common/errors/db-error.js';
import { FieldLinkEntity } from './field-link.entity.js';

registerConstraintCodes({
  uq_field_links_edge_in_link: 'FIELD_LINK_ALREADY_EXISTS',
  fk_field_links_dataset_link: 'DATASET_LINK_NOT_FOUND',
  fk_field_links_source_field: 'FIELD_NOT_FOUND',
  fk_field_links_target_field: 'FIELD_NOT_FOUND',
});

@Injectable()
export class FieldLinksRepository {
  readonly crud: CrudRepository<FieldLinkEntity>;

  constructor(dataSource: DataSource) {
    this.crud = new CrudRepository({
      dataSource,
      entity: FieldLinkEntity,
      notFound: 'FIELD_LINK_NOT_FOUND',
      softDelete: false,
    });
  }

  /** The field links of a dataset link, oldest first. */
  findByLink(linkId: string, manager?: EntityManager): Promise<FieldLinkEntity[]> {
    return this.crud
      .repo(manager)
      .createQueryBuilder('l')
      .where('l.dataset_link_id = :linkId', { linkId })
      .orderBy('l.created_at', 'ASC')
      .addOrderBy('l.id', 'ASC')
      .getMany();
  }

  /** The existing links of a dataset link among these (source, target) edges. */
  findEdges(
    linkId: string,
    edges: readonly { source_field_id: string; target_field_id: string }[],
    manager: EntityManager,
  ): Promise<{ id: string; source_field_id: string; target_field_id: string }[]> {
    return manager.query(
      `SELECT l.id, l.source_field_id, l.target_field_id FROM field_links l
       JOIN unnest($2::uuid[], $3::uuid[]) AS e(s, t) ON l.source_field_id = e.s AND l.target_field_id = e.t
       WHERE l.dataset_link_id = $1`,
      [linkId, edges.map((e) => e.source_field_id), edges.map((e) => e.target_field_id)],
    );
  }

  /** Which of (field, schema) pairs have a binding: `fieldId:schemaId` keys. */
  async boundPairs(
    pairs: readonly { fieldId: string; schemaId: string }[],
    manager: EntityManager,
  ): Promise<Set<string>> {
    if (pairs.length === 0) return new Set();
    const rows: { field_id: string; dataset_schema_id: string }[] = await manager.query(
      `SELECT b.field_id, b.dataset_schema_id FROM field_bindings b
       JOIN unnest($1::uuid[], $2::uuid[]) AS p(field_id, schema_id)
         ON b.field_id = p.field_id AND b.dataset_schema_id = p.schema_id`,
      [pairs.map((p) => p.fieldId), pairs.map((p) => p.schemaId)],
    );
    return new Set(rows.map((r) => `${r.field_id}:${r.dataset_schema_id}`));
  }
}
