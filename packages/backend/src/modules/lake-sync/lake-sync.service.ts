import type { LakeSyncResult, TechFieldTemplate } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user.js';
import { AppError } from '../../common/errors/app-error.js';
import { Transactions } from '../../database/transactions.js';
import { assertLinkLayers } from '../dataset-links/link-layers.js';
import { DatasetSchemasLookup } from '../dataset-schemas/dataset-schemas.lookup.js';
import { DatasetsLookup } from '../datasets/datasets.lookup.js';
import { TechFieldTemplatesService } from '../tech-field-templates/tech-field-templates.service.js';
import { LAKE_FLAVOR, LakeColumns, type LakeSyncRequest, type LakeSystem } from './lake-columns.js';
import { LakeSyncRepository } from './lake-sync.repository.js';
import { type LakeSource, LakeTableWriter } from './lake-table-writer.js';

/**
 * Lake-sync (AIDE v2 §9.4, ADR-019 of the original): a new Iceberg table mirroring a dataset's current
 * version, in one transaction — the hive dataset, its version 1 (published as any version is), the
 * dataset link and a field link per mapped column. Fixes of §10.19: the target layer is a layer and
 * must come after the source's (the link rule), a deleted target system is not found, unsafe casts are
 * reported, type trees are read whole (no depth cut).
 *
 * The steps, in order (each check before any write): the source (1), the target system (2–3), the
 * template (4), the columns (LakeColumns: 5–7, 9), then the writes (LakeTableWriter: 8, 10).
 */
@Injectable()
export class LakeSyncService {
  constructor(
    private readonly tx: Transactions,
    private readonly repo: LakeSyncRepository,
    private readonly datasets: DatasetsLookup,
    private readonly schemas: DatasetSchemasLookup,
    private readonly templates: TechFieldTemplatesService,
    private readonly columns: LakeColumns,
    private readonly writer: LakeTableWriter,
  ) {}

  sync(sourceId: string, input: LakeSyncRequest, actor: AuthUser): Promise<LakeSyncResult> {
    return this.tx.run(async (m) => {
      const source = await this.source(sourceId, m);
      const system = await this.targetSystem(source.datasetId, input, m);
      const template = await this.template(input);
      const columns = await this.columns.plan(source.versionId, input, template, system, m);
      const target = await this.writer.createTable(source.datasetId, input, system, columns, actor, m);
      const linkId = await this.writer.link(source, target, columns.mapped, actor, m);
      return {
        target_dataset_id: target.datasetId,
        target_dataset_schema_id: target.versionId,
        dataset_link_id: linkId,
        mapped_field_count: columns.mapped.length,
        tech_field_count: columns.tech.length,
        warnings: columns.warnings,
      };
    });
  }

  /** 1. The source and its current version. */
  private async source(sourceId: string, m: EntityManager): Promise<LakeSource> {
    const source = (await this.datasets.findActiveWithFlavor([sourceId], m)).get(sourceId.toLowerCase());
    if (!source) throw new AppError('DATASET_NOT_FOUND');
    const [current] = await this.schemas.findCurrentOfMany([source.id], m);
    if (!current) throw new AppError('LAKE_SYNC_NO_SOURCE_SCHEMA');
    return { datasetId: source.id, versionId: current.id };
  }

  /**
   * 2. The target system, active, of the Iceberg flavor; the layers in link order. 3. No table of that
   * name yet.
   */
  private async targetSystem(
    sourceId: string,
    input: LakeSyncRequest,
    m: EntityManager,
  ): Promise<LakeSystem> {
    const system = await this.repo.systemWithFlavor(input.target_system_id, m);
    if (!system) throw new AppError('SYSTEM_NOT_FOUND');
    if (system.flavor_code !== LAKE_FLAVOR) {
      throw new AppError('LAKE_SYNC_TARGET_FLAVOR_MISMATCH', undefined, { flavor: system.flavor_code });
    }
    assertLinkLayers(await this.repo.layerOf(sourceId, m), input.target_layer);
    const existing = await this.repo.hiveTable(system.id, input.db_name, input.table_name, m);
    if (existing) throw new AppError('DATASET_ALREADY_EXISTS', undefined, { dataset_id: existing });
    return system;
  }

  /** 4. The template, of the target layer. */
  private async template(input: LakeSyncRequest): Promise<TechFieldTemplate | null> {
    const template = input.tech_template_id ? await this.templates.get(input.tech_template_id) : null;
    if (template && template.layer !== input.target_layer) {
      throw new AppError('TECH_FIELD_TEMPLATE_LAYER_MISMATCH', undefined, {
        template_layer: template.layer,
        target_layer: input.target_layer,
      });
    }
    return template;
  }
}
