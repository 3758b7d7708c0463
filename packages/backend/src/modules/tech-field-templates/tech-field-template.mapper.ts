import type { TechFieldTemplate } from '@aide/schemas';
import { auditFields } from '../../common/crud/audit-mapper.js';
import type { TechFieldTemplateEntity } from './tech-field-template.entity.js';

export function toTechFieldTemplate(e: TechFieldTemplateEntity): TechFieldTemplate {
  return { ...auditFields(e), code: e.code, name: e.name, layer: e.layer, fields: e.fields };
}
