import type { TypeSpec } from '@aide/schemas';
import { AppError } from '../../common/errors/app-error.js';
import type { DataTypeEntity } from '../data-types/data-type.entity.js';
import { assertTypeSpecWithinLimits } from './type-tree-rules.js';
import { validateTypeParams } from '../type-system/params-schema.js';
import { childSlotsError } from '../type-system/type-tree-renderer.js';

/** A TypeSpec checked against the flavor's catalogue: data types resolved, params validated. */
export interface ResolvedTypeSpec {
  data_type_id: string;
  type_params: Record<string, unknown> | null;
  slot: string | null;
  children: ResolvedTypeSpec[];
}

/**
 * Resolves a published column type against the dataset flavor's data types. An unknown code is
 * DATA_TYPE_NOT_FOUND and invalid params TYPE_INSTANCE_PARAMS_INVALID, both naming the path; a tree
 * past the limits of a stored type tree is TYPE_INSTANCE_TREE_TOO_LARGE, an incomplete one (a slot its
 * template reads without a child, a child in a slot it ignores) TYPE_INSTANCE_RENDER_FAILED.
 */
export function resolveTypeSpec(
  spec: TypeSpec,
  dataTypes: ReadonlyMap<string, DataTypeEntity>,
  path: (string | number)[],
  slot: string | null = null,
): ResolvedTypeSpec {
  if (slot === null) assertTypeSpecWithinLimits(spec, path);
  const dataType = dataTypes.get(spec.data_type);
  if (!dataType) {
    throw new AppError('DATA_TYPE_NOT_FOUND', `No data type '${spec.data_type}' in the dataset's flavor.`, {
      path: [...path, 'data_type'],
      data_type: spec.data_type,
    });
  }
  const result = validateTypeParams(dataType.params_schema, spec.params ?? {});
  if (!result.ok) {
    throw new AppError('TYPE_INSTANCE_PARAMS_INVALID', undefined, {
      issues: result.issues.map((i) => ({ ...i, path: [...path, 'params', ...i.path] })),
    });
  }
  const slots = new Set<string>();
  const children = (spec.children ?? []).map((child, i) => {
    if (slots.has(child.slot)) {
      throw new AppError('TYPE_INSTANCE_SLOT_ALREADY_EXISTS', undefined, {
        path: [...path, 'children', i, 'slot'],
      });
    }
    slots.add(child.slot);
    return resolveTypeSpec(child.type, dataTypes, [...path, 'children', i, 'type'], child.slot);
  });
  // Complete before anything is written (type-tree-rules.ts): a no-op publish is refused too.
  const slotsError = childSlotsError(dataType.code, dataType.render_template, spec.children ?? []);
  if (slotsError !== null) {
    throw new AppError('TYPE_INSTANCE_RENDER_FAILED', slotsError, { path: [...path, 'children'] });
  }
  const params = Object.keys(result.value).length > 0 ? result.value : null;
  return { data_type_id: dataType.id, type_params: params, slot, children };
}
