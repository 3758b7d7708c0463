import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { CrudRepository } from '../../common/crud/crud-repository.js';
import { registerConstraintCodes } from '../../common/errors/db-error.js';
import { FieldEntity } from './field.entity.js';

registerConstraintCodes({
  uq_fields_root_name: 'FIELD_ALREADY_EXISTS',
  uq_fields_nested_name: 'FIELD_ALREADY_EXISTS',
  fk_fields_dataset: 'DATASET_NOT_FOUND',
  fk_fields_parent: 'FIELD_PARENT_NOT_FOUND',
});

@Injectable()
export class FieldsRepository {
  readonly crud: CrudRepository<FieldEntity>;

  constructor(dataSource: DataSource) {
    this.crud = new CrudRepository({
      dataSource,
      entity: FieldEntity,
      notFound: 'FIELD_NOT_FOUND',
      softDelete: false,
    });
  }

  /** Every field of a dataset (all levels), ordered for tree building. */
  async findByDataset(datasetId: string, manager?: EntityManager): Promise<FieldEntity[]> {
    return this.crud
      .repo(manager)
      .createQueryBuilder('f')
      .where('f.dataset_id = :datasetId', { datasetId })
      .orderBy('f.name', 'ASC')
      .addOrderBy('f.id', 'ASC')
      .getMany();
  }

  async findChildren(parentId: string, manager?: EntityManager): Promise<FieldEntity[]> {
    return this.crud
      .repo(manager)
      .createQueryBuilder('f')
      .where('f.parent_id = :parentId', { parentId })
      .orderBy('f.name', 'ASC')
      .getMany();
  }

  /**
   * Serialises changes of a dataset's field tree (moves) until the transaction ends: two concurrent
   * moves could each pass the cycle check against the other's old state and close a loop together.
   */
  async lockTree(datasetId: string, manager: EntityManager): Promise<void> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('fields:' || $1, 0))`, [datasetId]);
  }

  /**
   * Whether `ancestorId` is `fieldId` or one of its ancestors: one recursive query with no depth cutoff
   * (UNION drops repeated rows, so it ends even on a loop already in the table).
   */
  async isAncestorOrSelf(ancestorId: string, fieldId: string, manager: EntityManager): Promise<boolean> {
    const rows: { found: boolean }[] = await manager.query(
      `WITH RECURSIVE up(id, parent_id) AS (
         SELECT id, parent_id FROM fields WHERE id = $1
         UNION
         SELECT f.id, f.parent_id FROM fields f JOIN up ON f.id = up.parent_id WHERE up.id <> $2
       ) SELECT EXISTS (SELECT 1 FROM up WHERE id = $2) AS found`,
      [fieldId, ancestorId],
    );
    return rows[0]?.found === true;
  }

  /** Whether the field or one of its descendants, at any depth, is bound in a schema version. */
  async isBound(fieldId: string, manager: EntityManager): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `WITH RECURSIVE down(id) AS (
         SELECT id FROM fields WHERE id = $1
         UNION
         SELECT f.id FROM fields f JOIN down ON f.parent_id = down.id
       )
       SELECT 1 FROM field_bindings b JOIN down ON b.field_id = down.id LIMIT 1`,
      [fieldId],
    );
    return rows.length > 0;
  }

  /** The root fields of many datasets by name, in one query: `dataset_id/name` → field id. */
  /** The dataset's root fields of these names. */
  async findRootsByNames(
    datasetId: string,
    names: readonly string[],
    manager: EntityManager,
  ): Promise<FieldEntity[]> {
    if (names.length === 0) return [];
    return this.crud
      .repo(manager)
      .createQueryBuilder('f')
      .where('f.dataset_id = :datasetId AND f.parent_id IS NULL AND f.name IN (:...names)', {
        datasetId,
        names,
      })
      .getMany();
  }

  async findRootIdsByNames(
    pairs: readonly { dataset_id: string; name: string }[],
    manager: EntityManager,
  ): Promise<Map<string, string>> {
    if (pairs.length === 0) return new Map();
    const rows: { id: string; dataset_id: string; name: string }[] = await manager.query(
      `SELECT f.id, f.dataset_id, f.name FROM fields f
       JOIN unnest($1::uuid[], $2::text[]) AS u(dataset_id, name)
         ON f.dataset_id = u.dataset_id AND f.name = u.name
       WHERE f.parent_id IS NULL`,
      [pairs.map((p) => p.dataset_id), pairs.map((p) => p.name)],
    );
    return new Map(rows.map((r) => [`${r.dataset_id}/${r.name}`, r.id]));
  }

  /**
   * Inbound field links of a field through active dataset links (the origin lifecycle counts only
   * those: a soft-deleted link feeds nothing).
   */
  /**
   * The current PII tags of the classified fields of the given datasets (those never classified
   * aside), through the partial index `ix_fields_classified`.
   */
  currentPiiTagsOfDatasets(
    datasetIds: readonly string[],
    manager: EntityManager,
  ): Promise<{ id: string; dataset_id: string; pii_tags: string[] }[]> {
    if (datasetIds.length === 0) return Promise.resolve([]);
    return manager.query(
      `SELECT f.id, f.dataset_id, f.pii_tags FROM fields f
       WHERE f.dataset_id = ANY($1::uuid[]) AND f.pii_tags IS NOT NULL`,
      [[...new Set(datasetIds)]],
    );
  }

  async countActiveInboundLinks(fieldId: string, manager: EntityManager): Promise<number> {
    const rows: { n: number }[] = await manager.query(
      `SELECT count(*)::int AS n FROM field_links fl
       JOIN dataset_links dl ON dl.id = fl.dataset_link_id AND dl.deleted_at IS NULL
       WHERE fl.target_field_id = $1`,
      [fieldId],
    );
    return rows[0]?.n ?? 0;
  }

  /** The root fields a publish creates for its new columns, one INSERT whatever their number (ids given). */
  insertColumnFields(
    rows: readonly Partial<FieldEntity>[],
    actorId: string,
    manager: EntityManager,
  ): Promise<void> {
    return this.crud.insertManyBulk(rows, actorId, manager);
  }

  /** The technical root fields a template adds to a dataset (under its tree lock), in input order. */
  insertTechFields(
    rows: readonly Partial<FieldEntity>[],
    actorId: string,
    manager: EntityManager,
  ): Promise<FieldEntity[]> {
    return this.crud.insertMany(rows, actorId, manager);
  }

  /** Root fields of the datasets by name (case-insensitive), held FOR SHARE (origin checks). */
  lockRootsByName(
    wanted: readonly { datasetId: string; name: string }[],
    m: EntityManager,
  ): Promise<{ id: string; dataset_id: string; name: string; origin: string }[]> {
    if (wanted.length === 0) return Promise.resolve([]);
    return m.query(
      `SELECT f.id, f.dataset_id, f.name, f.origin FROM fields f
       JOIN unnest($1::uuid[], $2::text[]) AS w(dataset_id, name)
         ON f.dataset_id = w.dataset_id AND lower(f.name) = lower(w.name)
       WHERE f.parent_id IS NULL
       FOR SHARE OF f`,
      [wanted.map((w) => w.datasetId), wanted.map((w) => w.name)],
    );
  }
}
