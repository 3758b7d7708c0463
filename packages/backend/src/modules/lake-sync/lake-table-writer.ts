import { PublishSchemaVersionSchema } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user.js';
import { toAppError } from '../../common/errors/error-response.js';
import { DatasetLinkBatch } from '../dataset-links/dataset-link-batch.js';
import { DatasetsService } from '../datasets/datasets.service.js';
import { FieldLinkBatch } from '../field-links/field-link-batch.js';
import { SchemaVersionPublisher } from '../schema-versions/schema-version-publisher.js';
import type { LakeColumnsPlan, LakeSyncRequest, LakeSystem, MappedColumn } from './lake-columns.js';
import { LakeSyncRepository } from './lake-sync.repository.js';

/** The new table: its dataset and the id of its version 1. */
export interface LakeTable {
  datasetId: string;
  versionId: string;
}

/** The source side of the links: the dataset and its current version. */
export interface LakeSource {
  datasetId: string;
  versionId: string;
}

/**
 * Lake-sync's writes (steps 8 and 10), each through the module that owns the table (ADR 0026): the
 * hive dataset and its version 1, published as any version is; then the dataset link and a field link
 * per mapped column.
 */
@Injectable()
export class LakeTableWriter {
  constructor(
    private readonly repo: LakeSyncRepository,
    private readonly datasetsService: DatasetsService,
    private readonly publisher: SchemaVersionPublisher,
    private readonly links: DatasetLinkBatch,
    private readonly fieldLinks: FieldLinkBatch,
  ) {}

  /** 8. The hive dataset and its version 1. */
  async createTable(
    sourceId: string,
    input: LakeSyncRequest,
    system: LakeSystem,
    columns: LakeColumnsPlan,
    actor: AuthUser,
    m: EntityManager,
  ): Promise<LakeTable> {
    const target = await this.datasetsService.createIn(
      {
        kind: 'hive',
        system_id: system.id,
        object_name: `${input.db_name}.${input.table_name}`,
        layer: input.target_layer,
        catalog_uri: input.catalog_uri,
        db_name: input.db_name,
        table_name: input.table_name,
        is_external: input.is_external,
        file_format: 'iceberg',
        location: input.location ?? null,
        partition_cols: input.partition_cols ?? null,
      },
      actor,
      m,
    );
    const body = PublishSchemaVersionSchema.parse({
      columns: [
        ...columns.mapped.map(({ name, nullable, type }) => ({ name, nullable, type })),
        ...columns.tech,
      ],
      note: `lake-sync of ${sourceId}`,
    });
    const [outcome] = await this.publisher.publishAll(m, [{ datasetId: target.id, input: body }], actor);
    if (!outcome?.ok) throw toAppError(outcome?.error);
    return { datasetId: target.id, versionId: outcome.value.header.id };
  }

  /**
   * 10. The link (source's current version → version 1) and one field link per mapped column; the
   * dataset link's id.
   */
  async link(
    source: LakeSource,
    target: LakeTable,
    mapped: readonly MappedColumn[],
    actor: AuthUser,
    m: EntityManager,
  ): Promise<string> {
    const [link] = await this.links.insertPinned(
      [
        {
          source_dataset_id: source.datasetId,
          target_dataset_id: target.datasetId,
          source_schema_id: source.versionId,
          target_schema_id: target.versionId,
        },
      ],
      'lake-sync',
      actor.id,
      m,
    );
    // The target dataset was created in this transaction: no other link can hold the pair.
    if (!link) throw new Error('lake-sync: the new dataset link was not inserted');
    const targetFields = new Map(
      (await this.repo.columns(target.versionId, m)).map((c) => [c.name, c.field_id]),
    );
    await this.fieldLinks.insertMany(
      mapped.map((c) => ({
        dataset_link_id: link.id,
        source_field_id: c.source_field_id,
        target_field_id: targetFields.get(c.name) as string,
      })),
      actor.id,
      m,
    );
    return link.id;
  }
}
