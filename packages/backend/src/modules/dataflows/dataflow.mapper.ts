import type { Dataflow } from '@aide/schemas';
import { withSoftDelete } from '../../common/crud/audit-mapper.js';
import type { DataflowEntity } from './dataflow.entity.js';

export function toDataflow(e: DataflowEntity): Dataflow {
  return withSoftDelete<Dataflow>(e, {
    workspace_id: e.workspace_id,
    datacoolie_id: e.datacoolie_id,
    name: e.name,
    description: e.description,
    stage: e.stage,
    group_number: e.group_number,
    execution_order: e.execution_order,
    processing_mode: e.processing_mode,
    is_active: e.is_active,
    source_kind: e.source_kind,
    source_connection_id: e.source_connection_id,
    source_dataset_id: e.source_dataset_id,
    source_query: e.source_query,
    source_python_function: e.source_python_function,
    source_watermark_columns: e.source_watermark_columns,
    source_filter_expression: e.source_filter_expression,
    source_configure: e.source_configure,
    destination_connection_id: e.destination_connection_id,
    destination_dataset_id: e.destination_dataset_id,
    load_type: e.load_type,
    merge_keys: e.merge_keys,
    partition_columns: e.partition_columns,
    destination_configure: e.destination_configure,
    transform: e.transform,
    configure: e.configure,
    pinned_hint_schema_version_id: e.pinned_hint_schema_version_id,
    dataset_link_id: e.dataset_link_id,
  });
}
