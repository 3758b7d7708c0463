import type { ApplyTechTemplate, ApplyTechTemplateResult } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user.js';
import { AppError, validationError } from '../../common/errors/app-error.js';
import { Transactions } from '../../database/transactions.js';
import { DataTypesLookup } from '../data-types/data-types.lookup.js';
import { DatasetsLookup } from '../datasets/datasets.lookup.js';
import { toField } from '../fields/field.mapper.js';
import { FieldsRepository } from '../fields/fields.repository.js';
import { TechFieldTemplatesRepository } from './tech-field-templates.repository.js';

/**
 * Applying a template to a dataset (AIDE v2 §9.3): each template field not yet a root field of the
 * dataset becomes a field with origin `tech`. Idempotent by name: re-applying creates nothing. Every type
 * code is resolved against the dataset's flavor before anything is written, so one miss fails the call.
 * Like the original, no binding is created: the resolved type rides in `extra` until a version binds it.
 */
@Injectable()
export class TechFieldTemplateApplyService {
  constructor(
    private readonly templates: TechFieldTemplatesRepository,
    private readonly datasets: DatasetsLookup,
    private readonly dataTypes: DataTypesLookup,
    private readonly fields: FieldsRepository,
    private readonly tx: Transactions,
  ) {}

  apply(datasetId: string, input: ApplyTechTemplate, actor: AuthUser): Promise<ApplyTechTemplateResult> {
    const overrides = input.type_overrides ?? {};
    return this.tx.run(async (m) => {
      const dataset = await this.datasets.lockActive(datasetId, m);
      const template = await this.templates.crud.findActive(input.template_id, m, 'share');
      if (!template) throw new AppError('TECH_FIELD_TEMPLATE_NOT_FOUND');
      if (dataset.layer !== template.layer) {
        throw new AppError(
          'TECH_FIELD_TEMPLATE_LAYER_MISMATCH',
          `The template is for layer ${template.layer}; the dataset's layer is ${dataset.layer ?? 'not set'}.`,
        );
      }
      // The original ignores overrides of names the template lacks; a typo there is better refused.
      const names = new Set(template.fields.map((f) => f.name));
      const unknown = Object.keys(overrides).filter((n) => !names.has(n));
      if (unknown.length > 0) {
        throw validationError(
          unknown.map((n) => ({ path: ['type_overrides', n], message: 'is not a field of the template' })),
        );
      }
      const typesByCode = await this.dataTypes.byCodeOfFlavor(
        await this.datasets.flavorIdOf(datasetId, m),
        m,
      );
      const resolved = template.fields.map((f) => {
        const code = overrides[f.name] ?? f.type_code;
        const type = typesByCode.get(code);
        if (!type) {
          throw new AppError(
            'TECH_TYPE_CODE_NOT_RESOLVABLE',
            `Type code "${code}" of field "${f.name}" is not an active data type of the dataset's flavor.`,
          );
        }
        return { field: f, code, dataTypeId: type.id };
      });

      // Serialised with every other change to the dataset's field tree, so two applies cannot both insert.
      await this.fields.lockTree(datasetId, m);
      const existing = new Set(
        (await this.fields.findRootsByNames(datasetId, [...names], m)).map((f) => f.name),
      );
      const missing = resolved.filter((r) => !existing.has(r.field.name));
      const created = await this.fields.insertTechFields(
        missing.map(({ field, code, dataTypeId }) => ({
          dataset_id: datasetId,
          parent_id: null,
          name: field.name,
          origin: 'tech' as const,
          extra: {
            data_type_id: dataTypeId,
            tech_type_code: code,
            type_params: field.type_params,
            nullable: field.nullable,
            default_value: field.default_value,
            comment: field.comment,
            tech_template_id: template.id,
          },
        })),
        actor.id,
        m,
      );
      return {
        created: created.map(toField),
        skipped: resolved.filter((r) => existing.has(r.field.name)).map((r) => r.field.name),
      };
    });
  }
}
