import {
  contract,
  type CreateFieldClassification,
  type FieldClassification,
  type PiiTagCatalogue,
} from '@aide/schemas';
import type { RequestOptions } from '../core/request-options.js';
import { CollectionResource } from './crud.js';

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
    return this.api.invoke(contract.fieldClassifications.current, { params: { id: fieldId }, options });
  }

  /**
   * `GET /field-classifications/tags` — the tags in use (most used first, with how many fields carry
   * each) and the suggested vocabulary, to offer when tagging.
   */
  tags(options?: RequestOptions): Promise<PiiTagCatalogue> {
    return this.api.invoke(contract.fieldClassifications.tags, { options });
  }

  /**
   * `GET /field-classifications/by-dataset/{datasetId}/current` — the newest entry of every classified
   * field of the dataset (fields never classified are absent).
   */
  currentOfDataset(datasetId: string, options?: RequestOptions): Promise<FieldClassification[]> {
    return this.api.invoke(contract.fieldClassifications.currentOfDataset, {
      params: { id: datasetId },
      options,
    });
  }
}
