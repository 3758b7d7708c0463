import type { SchemaVersion } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { DatasetSchemaEntity } from '../dataset-schemas/dataset-schema.entity.js';
import {
  FieldBindingsRepository,
  type VersionColumnRow,
} from '../field-bindings/field-bindings.repository.js';
import { buildTypeTrees, toTypeInstanceTree } from '../type-instances/type-tree.js';
import { TypeInstancesLookup } from '../type-instances/type-instances.lookup.js';
import { VersionTypeTexts } from './version-type-texts.js';
import { columnAttributesRead, tableStructureOfEntity } from './version-structure.js';

/**
 * Whole versions read set-based: any number of versions costs two queries (columns with field names
 * and PII tags, type trees), so a snapshot page of a thousand datasets costs what one does. Only the
 * columns a version returns are read, and each distinct type is rendered once (VersionTypeTexts).
 */
@Injectable()
export class SchemaVersionReader {
  constructor(
    private readonly bindings: FieldBindingsRepository,
    private readonly typeInstances: TypeInstancesLookup,
    private readonly dataSource: DataSource,
  ) {}

  async one(schema: DatasetSchemaEntity, m?: EntityManager): Promise<SchemaVersion> {
    return (await this.many([schema], m)).get(schema.id) as SchemaVersion;
  }

  /** The versions keyed by dataset_schema id. */
  async many(
    schemas: readonly DatasetSchemaEntity[],
    m: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, SchemaVersion>> {
    const ids = schemas.map((s) => s.id);
    const rows = await this.bindings.columnsOfSchemas(ids, m);
    const trees = buildTypeTrees(await this.typeInstances.subtreesOfSchemas(ids, m));
    const bySchema = new Map<string, VersionColumnRow[]>();
    for (const row of rows) {
      const list = bySchema.get(row.dataset_schema_id);
      if (list) list.push(row);
      else bySchema.set(row.dataset_schema_id, [row]);
    }
    const typeTexts = new VersionTypeTexts();
    const versions = new Map<string, SchemaVersion>();
    for (const schema of schemas) {
      const columns = bySchema.get(schema.id) ?? [];
      const treeOf = columns.map((r) => {
        const tree = r.type_instance_id ? trees.get(r.type_instance_id) : null;
        if (tree === undefined) throw new Error(`type instance ${r.type_instance_id} missing`);
        return tree;
      });
      const texts = typeTexts.of(treeOf);
      versions.set(schema.id, {
        dataset_schema_id: schema.id,
        dataset_id: schema.dataset_id,
        version_num: schema.version_num,
        created_at: new Date(schema.created_at).toISOString(),
        columns: columns.map((r, i) => {
          const tree = treeOf[i] ?? null;
          return {
            field_id: r.field_id,
            name: r.field_name,
            position: r.position,
            nullable: r.is_nullable,
            type_instance_id: r.type_instance_id,
            rendered_type: texts[i] ?? null,
            type: tree ? toTypeInstanceTree(tree) : null,
            pii_tags: r.pii_tags,
            ...columnAttributesRead(r),
          };
        }),
        ...tableStructureOfEntity(schema),
      });
    }
    return versions;
  }
}
