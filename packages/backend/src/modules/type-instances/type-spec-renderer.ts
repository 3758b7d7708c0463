import type { RenderedTypeSpec, RenderTypeSpecRequest } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { DataTypeEntity } from '../data-types/data-type.entity.js';
import { DataTypesLookup } from '../data-types/data-types.lookup.js';
import { type ResolvedTypeSpec, resolveTypeSpec } from './type-spec-resolver.js';
import { SystemFlavorsLookup } from '../system-flavors/system-flavors.lookup.js';
import type { RenderableTypeNode } from '../type-system/type-tree-renderer.js';
import { renderTypeText } from './type-tree.js';

/**
 * Renders a type spec without storing it: the preview a person sees while choosing a column's type
 * (the web UI's type catalogue), with the same resolution and params validation as a publish.
 */
@Injectable()
export class TypeSpecRenderer {
  constructor(
    private readonly flavors: SystemFlavorsLookup,
    private readonly dataTypes: DataTypesLookup,
  ) {}

  async render(input: RenderTypeSpecRequest): Promise<RenderedTypeSpec> {
    await this.flavors.requireActive(input.system_flavor_id);
    const byCode = await this.dataTypes.byCodeOfFlavor(input.system_flavor_id);
    const byId = new Map([...byCode.values()].map((t) => [t.id, t]));
    const resolved = resolveTypeSpec(input.type, byCode, ['type']);
    return { rendered: renderTypeText(renderable(resolved, byId)) };
  }
}

function renderable(spec: ResolvedTypeSpec, byId: ReadonlyMap<string, DataTypeEntity>): RenderableTypeNode {
  const dataType = byId.get(spec.data_type_id) as DataTypeEntity;
  return {
    code: dataType.code,
    render_template: dataType.render_template,
    type_params: spec.type_params,
    slot: spec.slot,
    children: spec.children.map((child) => renderable(child, byId)),
  };
}
