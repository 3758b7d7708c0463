import type { DatasetLink } from '@aide/schemas';
import { withSoftDelete } from '../../common/crud/audit-mapper.js';
import type { DatasetLinkEntity } from './dataset-link.entity.js';

export function toDatasetLink(e: DatasetLinkEntity): DatasetLink {
  return withSoftDelete<DatasetLink>(e, {
    source_dataset_id: e.source_dataset_id,
    target_dataset_id: e.target_dataset_id,
    source_schema_id: e.source_schema_id,
    target_schema_id: e.target_schema_id,
    engine_id: e.engine_id,
  });
}
