import type { DatasetSchemaVersion } from '@aide/schemas';
import { withAudit } from '../../common/crud/audit-mapper.js';
import type { DatasetSchemaEntity } from './dataset-schema.entity.js';

export function toDatasetSchema(e: DatasetSchemaEntity): DatasetSchemaVersion {
  return withAudit<DatasetSchemaVersion>(e, {
    dataset_id: e.dataset_id,
    version_num: e.version_num,
    schema_: e.schema_,
    extra: e.extra,
  });
}
