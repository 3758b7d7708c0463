import {
  FieldClassificationSchema,
  type CreateFieldClassification,
  type FieldClassification,
} from '@aide/schemas';
import { z } from 'zod';
import type { RequestOptions } from '../core/request-options.js';
import { checkedItemPath, CollectionResource } from './crud.js';

const FieldClassificationsSchema = z.array(FieldClassificationSchema);

/**
 * `/api/v1/field-classifications`: the append-only PII history of fields. `create` adds an entry —
 * the field's tags from now on (`pii_tags: []` records "reviewed, no PII"); entries are never changed
 * or deleted. A field's current tags are its newest entry, also shown on its schema versions.
 */
export class FieldClassificationsResource extends CollectionResource<
  FieldClassification,
  CreateFieldClassification
> {
  /**
   * `GET /field-classifications/current/{fieldId}` — the field's newest entry. A field never classified
   * throws `NotFoundError` with `errorCode === 'FIELD_CLASSIFICATION_NOT_FOUND'`.
   */
  current(fieldId: string, options?: RequestOptions): Promise<FieldClassification> {
    return this.api.call(
      { method: 'GET', path: checkedItemPath(`${this.basePath}/current`, fieldId), options },
      FieldClassificationSchema,
    );
  }

  /**
   * `GET /field-classifications/by-dataset/{datasetId}/current` — the newest entry of every classified
   * field of the dataset (fields never classified are absent).
   */
  currentOfDataset(datasetId: string, options?: RequestOptions): Promise<FieldClassification[]> {
    return this.api.call(
      {
        method: 'GET',
        path: `${checkedItemPath(`${this.basePath}/by-dataset`, datasetId)}/current`,
        options,
      },
      FieldClassificationsSchema,
      'FieldClassification[]',
    );
  }
}
