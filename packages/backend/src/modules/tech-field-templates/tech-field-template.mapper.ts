import type { TechFieldTemplate } from '@aide/schemas';
import { withAudit } from '../../common/crud/audit-mapper.js';
import type { TechFieldTemplateEntity } from './tech-field-template.entity.js';

export function toTechFieldTemplate(e: TechFieldTemplateEntity): TechFieldTemplate {
  return withAudit<TechFieldTemplate>(e, { code: e.code, name: e.name, layer: e.layer, fields: e.fields });
}
