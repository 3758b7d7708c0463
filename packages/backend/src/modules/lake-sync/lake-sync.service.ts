import {
  type LakeSyncRequestSchema,
  type LakeSyncResult,
  PublishSchemaVersionSchema,
  type TypeSpec,
} from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { z } from 'zod';
import type { AuthUser } from '../../common/auth/current-user.js';
import { AppError } from '../../common/errors/app-error.js';
import { toAppError } from '../../common/errors/error-response.js';
import { Transactions } from '../../database/transactions.js';
import { resolveCast } from '../cast-rules/cast-resolver.js';
import type { CastCandidate } from '../cast-rules/cast-resolver.js';
import { CastRulesLookup } from '../cast-rules/cast-rules.lookup.js';
import { DataTypesLookup } from '../data-types/data-types.lookup.js';
import { DatasetLinkBatch } from '../dataset-links/dataset-link-batch.js';
import { assertLinkLayers } from '../dataset-links/link-layers.js';
import { DatasetSchemasLookup } from '../dataset-schemas/dataset-schemas.lookup.js';
import { DatasetsLookup } from '../datasets/datasets.lookup.js';
import { DatasetsService } from '../datasets/datasets.service.js';
import { FieldLinkBatch } from '../field-links/field-link-batch.js';
import { SchemaVersionPublisher } from '../schema-versions/schema-version-publisher.js';
import { TechFieldTemplatesService } from '../tech-field-templates/tech-field-templates.service.js';
import { buildTypeTrees, type TypeTreeNode } from '../type-instances/type-tree.js';
import { TypeInstancesLookup } from '../type-instances/type-instances.lookup.js';
import { LakeSyncRepository } from './lake-sync.repository.js';

type Request = z.output<typeof LakeSyncRequestSchema>;
type Warning = LakeSyncResult['warnings'][number];

/** The one flavor lake-sync writes (AIDE v2 §9.4). */
export const LAKE_FLAVOR = 'iceberg_v2';
const FALLBACK_TYPE = 'string';

/** A resolved tree as a publish body writes it. */
function toSpec(node: TypeTreeNode): TypeSpec {
  return {
    data_type: node.code,
    ...(node.type_params ? { params: node.type_params } : {}),
    ...(node.children.length > 0
      ? { children: node.children.map((c) => ({ slot: c.slot as string, type: toSpec(c) })) }
      : {}),
  };
}

/**
 * Lake-sync (AIDE v2 §9.4, ADR-019 of the original): a new Iceberg table mirroring a dataset's current
 * version, in one transaction — the hive dataset, its version 1 (published as any version is), the
 * dataset link and a field link per mapped column. Fixes of §10.19: the target layer is a layer and
 * must come after the source's (the link rule), a deleted target system is not found, unsafe casts are
 * reported, type trees are read whole (no depth cut).
 */
@Injectable()
export class LakeSyncService {
  constructor(
    private readonly tx: Transactions,
    private readonly repo: LakeSyncRepository,
    private readonly datasets: DatasetsLookup,
    private readonly datasetsService: DatasetsService,
    private readonly schemas: DatasetSchemasLookup,
    private readonly dataTypes: DataTypesLookup,
    private readonly castRules: CastRulesLookup,
    private readonly typeInstances: TypeInstancesLookup,
    private readonly publisher: SchemaVersionPublisher,
    private readonly templates: TechFieldTemplatesService,
    private readonly links: DatasetLinkBatch,
    private readonly fieldLinks: FieldLinkBatch,
  ) {}

  sync(sourceId: string, input: Request, actor: AuthUser): Promise<LakeSyncResult> {
    return this.tx.run(async (m) => {
      // 1. The source and its current version.
      const source = (await this.datasets.findActiveWithFlavor([sourceId], m)).get(sourceId.toLowerCase());
      if (!source) throw new AppError('DATASET_NOT_FOUND');
      const [current] = await this.schemas.findCurrentOfMany([source.id], m);
      if (!current) throw new AppError('LAKE_SYNC_NO_SOURCE_SCHEMA');
      // 2. The target system, active, of the Iceberg flavor; the layers in link order.
      const system = await this.repo.systemWithFlavor(input.target_system_id, m);
      if (!system) throw new AppError('SYSTEM_NOT_FOUND');
      if (system.flavor_code !== LAKE_FLAVOR) {
        throw new AppError('LAKE_SYNC_TARGET_FLAVOR_MISMATCH', undefined, { flavor: system.flavor_code });
      }
      assertLinkLayers(await this.repo.layerOf(source.id, m), input.target_layer);
      // 3. No table of that name yet.
      const existing = await this.repo.hiveTable(system.id, input.db_name, input.table_name, m);
      if (existing) throw new AppError('DATASET_ALREADY_EXISTS', undefined, { dataset_id: existing });
      // 4. The template, of the target layer.
      const template = input.tech_template_id ? await this.templates.get(input.tech_template_id) : null;
      if (template && template.layer !== input.target_layer) {
        throw new AppError('TECH_FIELD_TEMPLATE_LAYER_MISMATCH', undefined, {
          template_layer: template.layer,
          target_layer: input.target_layer,
        });
      }
      // 5–6. The source columns with their whole type trees; overrides must name them.
      const columns = await this.repo.columns(current.id, m);
      const names = new Set(columns.map((c) => c.name));
      for (const field of Object.keys(input.overrides ?? {})) {
        if (!names.has(field)) throw new AppError('LAKE_SYNC_UNKNOWN_OVERRIDE_FIELD', undefined, { field });
      }
      const trees = buildTypeTrees(
        await this.typeInstances.subtrees(
          columns.flatMap((c) => (c.type_instance_id ? [c.type_instance_id] : [])),
          m,
        ),
      );
      // 7. Each column's Iceberg type: the override, else the cast rules into the flavor.
      const lakeTypes = (await this.dataTypes.byCodeOfFlavors([system.flavor_id], m)).get(system.flavor_id);
      const sourceTypeIds = new Set<string>();
      const collect = (n: TypeTreeNode): void => {
        sourceTypeIds.add(n.data_type_id);
        n.children.forEach(collect);
      };
      for (const c of columns)
        if (c.type_instance_id && trees.get(c.type_instance_id))
          collect(trees.get(c.type_instance_id) as TypeTreeNode);
      const bySource = new Map<string, CastCandidate[]>();
      for (const candidate of await this.castRules.candidates([...sourceTypeIds], system.flavor_id, m)) {
        bySource.set(candidate.source_data_type_id, [
          ...(bySource.get(candidate.source_data_type_id) ?? []),
          candidate,
        ]);
      }
      const warnings: Warning[] = [];
      const mapped = columns.map((c) => {
        const override = input.overrides?.[c.name];
        let type: TypeSpec;
        if (override) {
          if (!lakeTypes?.has(override.data_type_code)) {
            throw new AppError(
              'DATA_TYPE_NOT_FOUND',
              `No data type '${override.data_type_code}' in ${LAKE_FLAVOR}.`,
              {
                field: c.name,
                data_type: override.data_type_code,
              },
            );
          }
          type = {
            data_type: override.data_type_code,
            ...(override.type_params ? { params: override.type_params } : {}),
          };
          warnings.push({
            field_name: c.name,
            code: 'OVERRIDE_APPLIED',
            detail: `Typed ${override.data_type_code} by the request.`,
          });
        } else {
          type = this.castColumn(
            c.name,
            c.type_instance_id ? trees.get(c.type_instance_id) : undefined,
            bySource,
            warnings,
          );
        }
        return { name: c.name, nullable: c.is_nullable, type, source_field_id: c.field_id };
      });
      // 9. The template's technical columns after the mapped ones, typed in the flavor.
      const techOverrides = new Map((input.tech_overrides ?? []).map((o) => [o.name, o.type_code]));
      const tech = [...(template?.fields ?? [])]
        .sort((a, b) => a.position - b.position)
        .filter((f) => !names.has(f.name))
        .map((f) => {
          const code = techOverrides.get(f.name) ?? f.type_code;
          if (!lakeTypes?.has(code)) {
            throw new AppError('TECH_TYPE_CODE_NOT_RESOLVABLE', undefined, {
              field: f.name,
              type_code: code,
              flavor: LAKE_FLAVOR,
            });
          }
          return {
            name: f.name,
            nullable: f.nullable,
            origin: 'tech' as const,
            type: { data_type: code, ...(f.type_params ? { params: f.type_params } : {}) },
          };
        });
      // 8. The hive dataset and its version 1.
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
        columns: [...mapped.map(({ name, nullable, type }) => ({ name, nullable, type })), ...tech],
        note: `lake-sync of ${source.id}`,
      });
      const [outcome] = await this.publisher.publishAll(m, [{ datasetId: target.id, input: body }], actor);
      if (!outcome?.ok) throw toAppError(outcome?.error);
      const version = outcome.value.header;
      // 10. The link (source's current version → version 1) and one field link per mapped column.
      const [link] = await this.links.insertPinned(
        [
          {
            source_dataset_id: source.id,
            target_dataset_id: target.id,
            source_schema_id: current.id,
            target_schema_id: version.id,
          },
        ],
        'lake-sync',
        actor.id,
        m,
      );
      // The target dataset was created in this transaction: no other link can hold the pair.
      if (!link) throw new Error('lake-sync: the new dataset link was not inserted');
      const targetFields = new Map((await this.repo.columns(version.id, m)).map((c) => [c.name, c.field_id]));
      await this.fieldLinks.insertMany(
        mapped.map((c) => ({
          dataset_link_id: link.id,
          source_field_id: c.source_field_id,
          target_field_id: targetFields.get(c.name) as string,
        })),
        actor.id,
        m,
      );
      return {
        target_dataset_id: target.id,
        target_dataset_schema_id: version.id,
        dataset_link_id: link.id,
        mapped_field_count: mapped.length,
        tech_field_count: tech.length,
        warnings,
      };
    });
  }

  /**
   * A source column's tree cast into the lake flavor through the cast resolver (one rule per source
   * data type, params mapped and validated). No rule anywhere in the tree: `string`, with a warning;
   * several: LAKE_SYNC_AMBIGUOUS_CAST; an unsafe rule is applied and reported (the original was silent).
   */
  private castColumn(
    name: string,
    tree: TypeTreeNode | undefined,
    bySource: ReadonlyMap<string, CastCandidate[]>,
    warnings: Warning[],
  ): TypeSpec {
    const fallback = (detail: string): TypeSpec => {
      warnings.push({ field_name: name, code: 'UNSUPPORTED_TYPE_FALLBACK', detail });
      return { data_type: FALLBACK_TYPE };
    };
    if (!tree) return fallback('The column has no data type (a native type only): typed string.');
    try {
      const outcome = resolveCast(tree, bySource);
      if (outcome.safety === 'unsafe') {
        warnings.push({
          field_name: name,
          code: 'UNSAFE_CAST',
          detail: `The cast from ${tree.code} to ${outcome.root.code} is unsafe: values may not fit.`,
        });
      }
      return toSpec(outcome.root);
    } catch (error) {
      const e = toAppError(error);
      if (e.code === 'CAST_RULE_NOT_RESOLVABLE') {
        return fallback(
          `No cast rule from ${tree.code} (or a type inside it) to ${LAKE_FLAVOR}: typed string.`,
        );
      }
      if (e.code === 'CAST_RULE_AMBIGUOUS') {
        throw new AppError('LAKE_SYNC_AMBIGUOUS_CAST', undefined, { field: name, ...(e.details ?? {}) });
      }
      throw error;
    }
  }
}
