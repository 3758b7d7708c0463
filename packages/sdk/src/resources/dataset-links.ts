import {
  FieldLinkSchema,
  type CreateDatasetLink,
  type CreateLinkFieldLink,
  type DatasetLink,
  type FieldLink,
  type UpdateDatasetLink,
} from '@aide/schemas';
import { z } from 'zod';
import type { RequestOptions } from '../core/request-options.js';
import { CrudResource } from './crud.js';

const FieldLinksSchema = z.array(FieldLinkSchema);

/**
 * `/api/v1/dataset-links`: lineage hops source → target, pinned to a schema version on each side,
 * optionally driven by an engine; and the field links inside a hop. Soft delete: `restore` is added by
 * the client.
 */
export class DatasetLinksResource extends CrudResource<DatasetLink, CreateDatasetLink, UpdateDatasetLink> {
  /** `GET /dataset-links/{id}/field-links` — the link's column lineage, oldest first. */
  fieldLinks(linkId: string, options?: RequestOptions): Promise<FieldLink[]> {
    return this.api.call(
      { method: 'GET', path: `${this.itemPath(linkId)}/field-links`, options },
      FieldLinksSchema,
      'FieldLink[]',
    );
  }

  /**
   * `POST /dataset-links/{id}/field-links` — one field link: the source field of the link's source
   * dataset feeds a `mapped` target field; both bound in the pinned versions. `ConflictError`
   * (`FIELD_LINK_TARGET_OCCUPIED`, `FIELD_ORIGIN_CONFLICT`), `ValidationError` (`FIELD_BINDING_MISSING`).
   */
  addFieldLink(linkId: string, body: CreateLinkFieldLink, options?: RequestOptions): Promise<FieldLink> {
    return this.api.call(
      { method: 'POST', path: `${this.itemPath(linkId)}/field-links`, json: body, options },
      FieldLinkSchema,
    );
  }

  /**
   * `POST /dataset-links/{id}/field-links/bulk` — many field links, all or nothing (at most 500); two
   * items with the same target are refused before anything is written, `details.indexes` naming them.
   */
  addFieldLinks(
    linkId: string,
    items: readonly CreateLinkFieldLink[],
    options?: RequestOptions,
  ): Promise<FieldLink[]> {
    return this.api.call(
      { method: 'POST', path: `${this.itemPath(linkId)}/field-links/bulk`, json: items, options },
      FieldLinksSchema,
      'FieldLink[]',
    );
  }
}
