import {
  contract,
  type ApplyTechTemplate,
  type ApplyTechTemplateResult,
  type CreateTechFieldTemplate,
  type TechFieldTemplate,
  type UpdateTechFieldTemplate,
} from '@aide/schemas';
import type { RequestOptions } from '../core/request-options.js';
import { CrudResource } from './crud.js';

const routes = contract.techFieldTemplates;

/**
 * `/api/v1/tech-field-templates`: presets of technical columns for one layer, with their fields
 * (name, position, type code and params, nullable, default, comment). Hard delete; superuser writes.
 */
export class TechFieldTemplatesResource extends CrudResource<
  TechFieldTemplate,
  CreateTechFieldTemplate,
  UpdateTechFieldTemplate
> {
  /**
   * `POST /datasets/{id}/apply-tech-template` — adds the template's fields missing from the dataset
   * as root fields with origin `tech`; names already present are listed in `skipped` (re-applying
   * changes nothing). `ValidationError` (`TECH_FIELD_TEMPLATE_LAYER_MISMATCH`,
   * `TECH_TYPE_CODE_NOT_RESOLVABLE`), `NotFoundError` (dataset or template).
   */
  apply(
    datasetId: string,
    body: ApplyTechTemplate,
    options?: RequestOptions,
  ): Promise<ApplyTechTemplateResult> {
    return this.api.invoke(routes.apply, { params: { id: datasetId }, body, options });
  }
}
