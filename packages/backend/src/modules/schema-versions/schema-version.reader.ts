import type { SchemaVersion } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { DatasetSchemaEntity } from '../dataset-schemas/dataset-schema.entity.js';
import { type BindingRow, FieldBindingsRepository } from '../field-bindings/field-bindings.repository.js';
import { FieldClassificationsRepository } from '../field-classifications/field-classifications.repository.js';
import { buildTypeTrees, renderTypeText, toTypeInstanceTree } from '../type-instances/type-tree.js';
import { TypeInstancesRepository } from '../type-instances/type-instances.repository.js';
import { RenderBudget } from '../type-system/render-budget.js';
import { columnAttributesRead, tableStructureOfEntity } from './version-structure.js';

/**
 * Whole versions read set-based: any number of versions costs three queries (bindings with field
 * names, type trees, current PII tags), so a snapshot page of a thousand datasets costs what one does.
 */
@Injectable()
export class SchemaVersionReader {
  constructor(
    private readonly bindings: FieldBindingsRepository,
    private readonly typeInstances: TypeInstancesRepository,
    private readonly classifications: FieldClassificationsRepository,
  ) {}

  async one(schema: DatasetSchemaEntity, m?: EntityManager): Promise<SchemaVersion> {
    return (await this.many([schema], m)).get(schema.id) as SchemaVersion;
  }

  /** The versions keyed by dataset_schema id. */
  async many(
    schemas: readonly DatasetSchemaEntity[],
    m?: EntityManager,
  ): Promise<Map<string, SchemaVersion>> {
    const rows = await this.bindings.ofSchemas(
      schemas.map((s) => s.id),
      m,
    );
    const trees = buildTypeTrees(
      await this.typeInstances.subtrees(
        rows.flatMap((r) => (r.type_instance_id ? [r.type_instance_id] : [])),
        m,
      ),
    );
    const tags = new Map(
      (
        await this.classifications.currentOfFields(
          rows.map((r) => r.field_id),
          m,
        )
      ).map((c) => [c.field_id, c.pii_tags]),
    );
    const bySchema = new Map<string, BindingRow[]>();
    for (const row of rows) {
      const list = bySchema.get(row.dataset_schema_id);
      if (list) list.push(row);
      else bySchema.set(row.dataset_schema_id, [row]);
    }
    const versions = new Map<string, SchemaVersion>();
    for (const schema of schemas) {
      // One render budget per version: many columns cannot multiply it.
      const budget = new RenderBudget();
      versions.set(schema.id, {
        dataset_schema_id: schema.id,
        dataset_id: schema.dataset_id,
        version_num: schema.version_num,
        created_at: new Date(schema.created_at).toISOString(),
        columns: (bySchema.get(schema.id) ?? []).map((r) => {
          const tree = r.type_instance_id ? trees.get(r.type_instance_id) : null;
          if (tree === undefined) throw new Error(`type instance ${r.type_instance_id} missing`);
          return {
            field_id: r.field_id,
            name: r.field_name,
            position: r.position,
            nullable: r.is_nullable,
            type_instance_id: r.type_instance_id,
            rendered_type: tree ? renderTypeText(tree, budget) : null,
            type: tree ? toTypeInstanceTree(tree) : null,
            pii_tags: tags.get(r.field_id) ?? null,
            ...columnAttributesRead(r),
          };
        }),
        ...tableStructureOfEntity(schema),
      });
    }
    return versions;
  }
}
