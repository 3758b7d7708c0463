import {
  type LakeSyncRequestSchema,
  type LakeSyncResult,
  type TechFieldTemplate,
  type TypeSpec,
} from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { z } from 'zod';
import { AppError } from '../../common/errors/app-error.js';
import { toAppError } from '../../common/errors/error-response.js';
import { resolveCast } from '../cast-rules/cast-resolver.js';
import type { CastCandidate } from '../cast-rules/cast-resolver.js';
import { CastRulesLookup } from '../cast-rules/cast-rules.lookup.js';
import { DataTypesLookup } from '../data-types/data-types.lookup.js';
import { buildTypeTrees, type TypeTreeNode } from '../type-instances/type-tree.js';
import { TypeInstancesLookup } from '../type-instances/type-instances.lookup.js';
import { LakeSyncRepository, type SourceColumn } from './lake-sync.repository.js';

export type LakeSyncRequest = z.output<typeof LakeSyncRequestSchema>;
type Warning = LakeSyncResult['warnings'][number];

/** The one flavor lake-sync writes (AIDE v2 §9.4). */
export const LAKE_FLAVOR = 'iceberg_v2';
const FALLBACK_TYPE = 'string';

/** The target system, with its flavor. */
export interface LakeSystem {
  id: string;
  flavor_id: string;
  flavor_code: string;
}

/** A source column as the new table has it, and the source field it mirrors (for its field link). */
export interface MappedColumn {
  name: string;
  nullable: boolean;
  type: TypeSpec;
  source_field_id: string;
}

/** A technical column of the template, typed in the lake flavor. */
export interface TechColumn {
  name: string;
  nullable: boolean;
  origin: 'tech';
  type: TypeSpec;
}

/** The new table's columns: the mapped ones, then the template's, and what was reported on the way. */
export interface LakeColumnsPlan {
  mapped: MappedColumn[];
  tech: TechColumn[];
  warnings: Warning[];
}

/** The lake flavor's data types, by code. */
type LakeTypes = ReadonlyMap<string, unknown> | undefined;

/**
 * Lake-sync's steps 5–7 and 9: the source version's columns typed in the lake flavor (an override of
 * the request, else the cast rules into the flavor), then the template's technical columns.
 */
@Injectable()
export class LakeColumns {
  constructor(
    private readonly repo: LakeSyncRepository,
    private readonly dataTypes: DataTypesLookup,
    private readonly castRules: CastRulesLookup,
    private readonly typeInstances: TypeInstancesLookup,
  ) {}

  async plan(
    sourceSchemaId: string,
    input: LakeSyncRequest,
    template: TechFieldTemplate | null,
    system: LakeSystem,
    m: EntityManager,
  ): Promise<LakeColumnsPlan> {
    // 5–6. The source columns with their whole type trees; overrides must name them.
    const columns = await this.repo.columns(sourceSchemaId, m);
    const names = new Set(columns.map((c) => c.name));
    assertOverridesNamed(input, names);
    const trees = await this.typeTrees(columns, m);
    // 7. Each column's Iceberg type: the override, else the cast rules into the flavor.
    const lakeTypes = (await this.dataTypes.byCodeOfFlavors([system.flavor_id], m)).get(system.flavor_id);
    const bySource = await this.castCandidates(columns, trees, system.flavor_id, m);
    const warnings: Warning[] = [];
    const mapped = columns.map((c) => {
      const override = input.overrides?.[c.name];
      const type = override
        ? overrideType(c.name, override, lakeTypes, warnings)
        : castColumn(
            c.name,
            c.type_instance_id ? trees.get(c.type_instance_id) : undefined,
            bySource,
            warnings,
          );
      return { name: c.name, nullable: c.is_nullable, type, source_field_id: c.field_id };
    });
    // 9. The template's technical columns after the mapped ones, typed in the flavor.
    const tech = techColumns(template, names, input, lakeTypes);
    return { mapped, tech, warnings };
  }

  /** The whole type trees of the columns (no depth cut), by root type instance id. */
  private async typeTrees(
    columns: readonly SourceColumn[],
    m: EntityManager,
  ): Promise<Map<string, TypeTreeNode>> {
    return buildTypeTrees(
      await this.typeInstances.subtrees(
        columns.flatMap((c) => (c.type_instance_id ? [c.type_instance_id] : [])),
        m,
      ),
    );
  }

  /** The cast rules into the flavor from every data type in the columns' trees, by source data type. */
  private async castCandidates(
    columns: readonly SourceColumn[],
    trees: ReadonlyMap<string, TypeTreeNode>,
    flavorId: string,
    m: EntityManager,
  ): Promise<Map<string, CastCandidate[]>> {
    const sourceTypeIds = new Set<string>();
    const collect = (n: TypeTreeNode): void => {
      sourceTypeIds.add(n.data_type_id);
      n.children.forEach(collect);
    };
    for (const c of columns) {
      const tree = c.type_instance_id ? trees.get(c.type_instance_id) : undefined;
      if (tree) collect(tree);
    }
    const bySource = new Map<string, CastCandidate[]>();
    for (const candidate of await this.castRules.candidates([...sourceTypeIds], flavorId, m)) {
      bySource.set(candidate.source_data_type_id, [
        ...(bySource.get(candidate.source_data_type_id) ?? []),
        candidate,
      ]);
    }
    return bySource;
  }
}

function assertOverridesNamed(input: LakeSyncRequest, names: ReadonlySet<string>): void {
  for (const field of Object.keys(input.overrides ?? {})) {
    if (!names.has(field)) throw new AppError('LAKE_SYNC_UNKNOWN_OVERRIDE_FIELD', undefined, { field });
  }
}

/** A column typed by the request: a data type of the flavor, reported as applied. */
function overrideType(
  name: string,
  override: NonNullable<LakeSyncRequest['overrides']>[string],
  lakeTypes: LakeTypes,
  warnings: Warning[],
): TypeSpec {
  if (!lakeTypes?.has(override.data_type_code)) {
    throw new AppError(
      'DATA_TYPE_NOT_FOUND',
      `No data type '${override.data_type_code}' in ${LAKE_FLAVOR}.`,
      {
        field: name,
        data_type: override.data_type_code,
      },
    );
  }
  warnings.push({
    field_name: name,
    code: 'OVERRIDE_APPLIED',
    detail: `Typed ${override.data_type_code} by the request.`,
  });
  return {
    data_type: override.data_type_code,
    ...(override.type_params ? { params: override.type_params } : {}),
  };
}

/**
 * A source column's tree cast into the lake flavor through the cast resolver (one rule per source
 * data type, params mapped and validated). No rule anywhere in the tree: `string`, with a warning;
 * several: LAKE_SYNC_AMBIGUOUS_CAST; an unsafe rule is applied and reported (the original was silent).
 */
function castColumn(
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
 * The template's technical columns in position order, but none a source column already names, each
 * typed by the request's tech override or the template, in the flavor.
 */
function techColumns(
  template: TechFieldTemplate | null,
  names: ReadonlySet<string>,
  input: LakeSyncRequest,
  lakeTypes: LakeTypes,
): TechColumn[] {
  const techOverrides = new Map((input.tech_overrides ?? []).map((o) => [o.name, o.type_code]));
  return [...(template?.fields ?? [])]
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
}
