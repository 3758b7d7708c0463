import { contract, type CreateField, type Field, type FieldTree, type UpdateField } from '@aide/schemas';
import type { RequestOptions } from '../core/request-options.js';
import { CrudResource } from './crud.js';

/**
 * `/api/v1/fields`: the column identities of a dataset, nested through `parent_id` (struct members).
 * Publishing a schema version creates them; these are the granular routes. `createMany` is added by
 * the client. Moving a field (`update` with `parent_id`) under itself or one of its descendants throws
 * `ConflictError` (409 `FIELD_CIRCULAR_REFERENCE`).
 */
export class FieldsResource extends CrudResource<Field, CreateField, UpdateField> {
  /** `GET /fields/tree/{datasetId}` — every field of the dataset, as trees of root fields. */
  tree(datasetId: string, options?: RequestOptions): Promise<FieldTree[]> {
    return this.api.invoke(contract.fields.tree, { params: { id: datasetId }, options });
  }

  /** `GET /fields/{id}/children` — the direct children of a field. */
  children(id: string, options?: RequestOptions): Promise<Field[]> {
    return this.api.invoke(contract.fields.children, { params: { id }, options });
  }
}
