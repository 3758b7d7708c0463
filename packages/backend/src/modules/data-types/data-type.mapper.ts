import type { DataType } from '@aide/schemas';
import { withSoftDelete } from '../../common/crud/audit-mapper.js';
import type { DataTypeEntity } from './data-type.entity.js';

export function toDataType(e: DataTypeEntity): DataType {
  return withSoftDelete<DataType>(e, {
    system_flavor_id: e.system_flavor_id,
    code: e.code,
    params_schema: e.params_schema,
    render_template: e.render_template,
    description: e.description,
  });
}
