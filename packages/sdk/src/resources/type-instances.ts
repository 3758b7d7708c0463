import {
  contract,
  type CreateTypeInstance,
  type RenderedType,
  type RenderedTypeSpec,
  type RenderTypeSpecRequest,
  type TypeInstance,
  type TypeInstanceTree,
  type UpdateTypeInstance,
} from '@aide/schemas';
import type { RequestOptions } from '../core/request-options.js';
import { CrudResource } from './crud.js';

/**
 * `/api/v1/type-instances`: parametrised types (`numeric(12,2)`), nested through `parent_id` and
 * `slot` into trees (`varchar(10)[]` is an `array` with a `varchar` child in slot `item`). Any user
 * writes them; deletes are hard deletes (superusers). `createMany` is added by the client.
 */
export class TypeInstancesResource extends CrudResource<
  TypeInstance,
  CreateTypeInstance,
  UpdateTypeInstance
> {
  /**
   * `GET /type-instances/{id}/tree` — the instance and everything under it, each node with its data
   * type's code and its children by slot.
   */
  tree(id: string, options?: RequestOptions): Promise<TypeInstanceTree> {
    return this.api.invoke(contract.typeInstances.tree, { params: { id }, options });
  }

  /**
   * `GET /type-instances/{id}/render` — the type text of the whole tree, from the data types'
   * templates: `numeric(12,2)`, `varchar(10)[]`, `array<struct<a:int>>`. A template that cannot render
   * throws `ValidationError` (`TYPE_INSTANCE_RENDER_FAILED`).
   */
  render(id: string, options?: RequestOptions): Promise<RenderedType> {
    return this.api.invoke(contract.typeInstances.render, { params: { id }, options });
  }

  /**
   * `POST /type-instances/render` — the type text a spec would render to, without storing anything:
   * `{ system_flavor_id, type: { data_type: 'numeric', params: { precision: 12, scale: 2 } } }` →
   * `{ rendered: 'numeric(12,2)' }`. Unknown codes and invalid params throw `ValidationError`/`NotFoundError`
   * with the codes a publish would give.
   */
  renderSpec(input: RenderTypeSpecRequest, options?: RequestOptions): Promise<RenderedTypeSpec> {
    return this.api.invoke(contract.typeInstances.renderSpec, { body: input, options });
  }
}
