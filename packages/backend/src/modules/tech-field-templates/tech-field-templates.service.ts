import type {
  CreateTechFieldTemplate,
  ListQuery,
  Page,
  TechFieldTemplate,
  TechFieldTemplateField,
  TechFieldTemplateFieldInput,
  UpdateTechFieldTemplate,
} from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user.js';
import type { CrudService } from '../../common/crud/crud-service.js';
import { mapPage } from '../../common/crud/list.js';
import { splitUpdate } from '../../common/crud/update-input.js';
import { AppError, validationError } from '../../common/errors/app-error.js';
import { Transactions } from '../../database/transactions.js';
import type { TechFieldTemplateEntity } from './tech-field-template.entity.js';
import { toTechFieldTemplate } from './tech-field-template.mapper.js';
import { TechFieldTemplatesRepository } from './tech-field-templates.repository.js';

/**
 * The stored form of a template's fields: every attribute present, ordered by position. Names are unique
 * (the original's `uq_tft_field_name`, same code); positions too, so the order is never ambiguous.
 */
export function normaliseTemplateFields(
  fields: readonly TechFieldTemplateFieldInput[],
): TechFieldTemplateField[] {
  const names = new Set<string>();
  const positions = new Set<number>();
  fields.forEach((f, i) => {
    if (names.has(f.name)) {
      throw new AppError('TECH_FIELD_TEMPLATE_FIELD_ALREADY_EXISTS', `Field "${f.name}" appears twice.`);
    }
    if (positions.has(f.position)) {
      throw validationError([{ path: ['fields', i, 'position'], message: 'is used by another field' }]);
    }
    names.add(f.name);
    positions.add(f.position);
  });
  return fields
    .map((f) => ({
      name: f.name,
      position: f.position,
      type_code: f.type_code,
      type_params: f.type_params ?? null,
      nullable: f.nullable ?? true,
      default_value: f.default_value ?? null,
      comment: f.comment ?? null,
    }))
    .sort((a, b) => a.position - b.position);
}

/** Tech-field templates (AIDE v2 §2.4.15): hard delete; editing one never touches applied fields. */
@Injectable()
export class TechFieldTemplatesService implements CrudService<
  TechFieldTemplate,
  CreateTechFieldTemplate,
  UpdateTechFieldTemplate
> {
  constructor(
    private readonly templates: TechFieldTemplatesRepository,
    private readonly tx: Transactions,
  ) {}

  async list(query: ListQuery): Promise<Page<TechFieldTemplate>> {
    return mapPage(await this.templates.crud.findPage(query), toTechFieldTemplate);
  }

  get(id: string): Promise<TechFieldTemplate> {
    return this.templates.crud.getActivePrepared(id).then(toTechFieldTemplate);
  }

  create(input: CreateTechFieldTemplate, actor: AuthUser): Promise<TechFieldTemplate> {
    const fields = normaliseTemplateFields(input.fields ?? []);
    return this.tx.run(async (m) => {
      const row = await this.templates.crud.insert(
        { code: input.code, name: input.name, layer: input.layer, fields, note: input.note ?? null },
        actor.id,
        m,
      );
      return toTechFieldTemplate(row);
    });
  }

  update(
    id: string,
    input: UpdateTechFieldTemplate,
    ifMatch: number | undefined,
    actor: AuthUser,
  ): Promise<TechFieldTemplate> {
    const { changes, version } = splitUpdate(input, ifMatch);
    const { fields, ...rest } = changes;
    const values: Partial<TechFieldTemplateEntity> = { ...rest };
    if (fields !== undefined) values.fields = normaliseTemplateFields(fields);
    return this.tx.run(async (m) =>
      toTechFieldTemplate(await this.templates.crud.update(id, values, version, actor.id, m)),
    );
  }

  remove(id: string): Promise<TechFieldTemplate> {
    return this.tx.run(async (m) => toTechFieldTemplate(await this.templates.crud.hardDelete(id, m)));
  }
}
