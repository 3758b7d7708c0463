import type { SchemaVersion } from '@aide/schemas';
import { schemaVersionFingerprint } from '@aide/schemas/fingerprint';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { DatasetSchemaEntity } from '../dataset-schemas/dataset-schema.entity.js';
import type { VersionColumnRow } from '../field-bindings/field-bindings.repository.js';
import { AppError } from '../../common/errors/app-error.js';
import { toItemError } from '../../common/errors/error-response.js';
import { buildTypeTrees, toTypeInstanceTree, type TypeTreeNode } from '../type-instances/type-tree.js';
import { storedTreeLimits } from '../type-instances/type-tree-rules.js';
import type { ReadShape } from './read-shapes.repository.js';
import { VersionColumns } from './version-columns.js';
import { VersionTypeTexts } from './version-type-texts.js';
import { columnAttributesRead, tableStructureOfEntity } from './version-structure.js';

/** A version as read, with the stored form of it (ADR 0029). */
export interface VersionWithShape {
  version: SchemaVersion;
  /** Null for a version that cannot be read whole: such a read is answered, never stored. */
  shape: ReadShape | null;
  /** Why the version cannot be read whole (its `read_error`), or null. */
  error: AppError | null;
}

/**
 * The text a version's read shape stores: the version's JSON as the routes answer it, its columns'
 * PII tags left out (null), since classifications change after the version is published.
 */
export function readShapeJson(version: SchemaVersion): string {
  return JSON.stringify({ ...version, columns: version.columns.map((c) => ({ ...c, pii_tags: null })) });
}

function collectTypeIds(node: TypeTreeNode, into: Set<string>): void {
  into.add(node.data_type_id);
  for (const child of node.children) collectTypeIds(child, into);
}

/**
 * Whole versions read set-based: any number of versions costs three queries (`VersionColumns`), so a
 * snapshot page of a thousand datasets costs what one does. Only the
 * columns a version returns are read, and each distinct type is rendered once (VersionTypeTexts).
 *
 * A stored version that cannot be read whole (a tree past the limits, a type that does not render:
 * rows of an older release, or a data type edited since) fails neither the read nor the other
 * versions: it is answered with its columns, no rendered types, and its `read_error`.
 */
@Injectable()
export class SchemaVersionReader {
  constructor(
    private readonly versionColumns: VersionColumns,
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
    const read = await this.withShapes(schemas, m);
    return new Map([...read].map(([id, r]) => [id, r.version]));
  }

  /**
   * The versions keyed by dataset_schema id, each with its read shape: the stored text and the
   * row_version of every data type its types were rendered from, read in the same statement as the
   * templates, so that the text is known true while those row_versions are current.
   */
  async withShapes(
    schemas: readonly DatasetSchemaEntity[],
    m: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, VersionWithShape>> {
    const ids = schemas.map((s) => s.id);
    const { columns: rows, nodes, typeVersions } = await this.versionColumns.read(ids, m);
    // A tree past the limits (stored by an older release) fails only the versions it is bound in.
    const { rootOf, tooLarge } = storedTreeLimits(nodes);
    const trees = buildTypeTrees(nodes.filter((n) => !tooLarge.has(rootOf.get(n.id) as string)));
    const bySchema = new Map<string, VersionColumnRow[]>();
    for (const row of rows) {
      const list = bySchema.get(row.dataset_schema_id);
      if (list) list.push(row);
      else bySchema.set(row.dataset_schema_id, [row]);
    }
    const typeTexts = new VersionTypeTexts();
    const versions = new Map<string, VersionWithShape>();
    for (const schema of schemas) {
      const columns = bySchema.get(schema.id) ?? [];
      let cause: AppError | undefined;
      const treeOf = columns.map((r) => {
        if (r.type_instance_id === null) return null;
        const past = tooLarge.get(r.type_instance_id);
        if (past) {
          cause ??= new AppError(past.code, past.message, { type_instance_id: r.type_instance_id });
          return null;
        }
        const tree = trees.get(r.type_instance_id);
        if (tree === undefined) throw new Error(`type instance ${r.type_instance_id} missing`);
        return tree;
      });
      let texts: (string | null)[] = [];
      if (cause === undefined) {
        try {
          texts = typeTexts.of(treeOf);
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          cause = error;
        }
      }
      const error =
        cause === undefined
          ? null
          : new AppError(cause.code, cause.message, {
              ...cause.details,
              dataset_schema_id: schema.id,
              version_num: schema.version_num,
            });
      const typeIds = new Set<string>();
      for (const tree of treeOf) if (tree) collectTypeIds(tree, typeIds);
      const version: SchemaVersion = {
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
        ...(error ? { read_error: toItemError(error) } : {}),
        // Written with the version and never changed: a stored shape keeps it (ADR 0048). Shapes stored
        // before overrides existed lack it, as every version published before them was not forced.
        ...(schema.compatibility_override ? { compatibility_override: schema.compatibility_override } : {}),
      };
      const dataTypes: Record<string, number> = {};
      for (const id of [...typeIds].sort()) dataTypes[id] = typeVersions.get(id) as number;
      versions.set(schema.id, {
        version,
        shape: error
          ? null
          : {
              dataset_schema_id: schema.id,
              version_json: readShapeJson(version),
              data_types: dataTypes,
              fingerprint: schemaVersionFingerprint(version),
            },
        error,
      });
    }
    return versions;
  }
}
