import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { CrudRepository } from '../../common/crud/crud-repository.js';
import { registerConstraintCodes } from '../../common/errors/db-error.js';
import { FieldClassificationEntity } from './field-classification.entity.js';

registerConstraintCodes({ fk_field_classifications_field: 'FIELD_NOT_FOUND' });

@Injectable()
export class FieldClassificationsRepository {
  readonly crud: CrudRepository<FieldClassificationEntity>;

  constructor(dataSource: DataSource) {
    this.crud = new CrudRepository({
      dataSource,
      entity: FieldClassificationEntity,
      notFound: 'FIELD_CLASSIFICATION_NOT_FOUND',
      softDelete: false,
    });
  }

  async currentOfField(fieldId: string): Promise<FieldClassificationEntity | undefined> {
    return (
      (await this.crud
        .repo()
        .createQueryBuilder('c')
        .where('c.field_id = :fieldId', { fieldId })
        .orderBy('c.created_at', 'DESC')
        .addOrderBy('c.id', 'DESC')
        .limit(1)
        .getOne()) ?? undefined
    );
  }

  /** The newest classification of each given field (one query). */
  async currentOfFields(
    fieldIds: readonly string[],
    manager?: EntityManager,
  ): Promise<FieldClassificationEntity[]> {
    if (fieldIds.length === 0) return [];
    return this.crud
      .repo(manager)
      .createQueryBuilder('c')
      .distinctOn(['c.field_id'])
      .where('c.field_id = ANY(:fieldIds::uuid[])', { fieldIds: [...fieldIds] })
      .orderBy('c.field_id')
      .addOrderBy('c.created_at', 'DESC')
      .addOrderBy('c.id', 'DESC')
      .getMany();
  }

  /**
   * The tags of fields' current classifications (the `fields.pii_tags` the insert trigger keeps, ADR
   * 0018) with how many fields of live datasets carry each, most used first.
   */
  async tagsInUse(limit: number): Promise<{ tag: string; field_count: number }[]> {
    return this.crud.repo().query(
      `SELECT t.tag, count(*)::int AS field_count
         FROM fields f
         JOIN datasets d ON d.id = f.dataset_id AND d.deleted_at IS NULL
         CROSS JOIN LATERAL unnest(f.pii_tags) AS t(tag)
        WHERE f.pii_tags IS NOT NULL
        GROUP BY t.tag
        ORDER BY field_count DESC, t.tag
        LIMIT $1`,
      [limit],
    );
  }

  /** The newest classification of every field of a dataset (one query). */
  async currentOfDataset(datasetId: string): Promise<FieldClassificationEntity[]> {
    return this.crud
      .repo()
      .createQueryBuilder('c')
      .distinctOn(['c.field_id'])
      .innerJoin('fields', 'f', 'f.id = c.field_id')
      .where('f.dataset_id = :datasetId', { datasetId })
      .orderBy('c.field_id')
      .addOrderBy('c.created_at', 'DESC')
      .addOrderBy('c.id', 'DESC')
      .getMany();
  }
}
