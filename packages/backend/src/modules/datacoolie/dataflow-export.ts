// A dataflow as the DataCoolie dataflow it exports (reference §1.10 API shape, connections expanded),
// built and validated by DataCoolie's model rules: what the registry accepts, `initialize()` accepts.
import {
  classifySourceQuery,
  type Connection,
  createDataflow,
  type DataFlow,
  type JsonObject,
} from '@aide/schemas/datacoolie';
import type { DatasetAddress } from './dataset-address.js';

export interface DataflowRow {
  id: string;
  /** The dataflow_id DataCoolie sees (ADR 0050); the dataflow id when absent. */
  datacoolie_id?: string;
  workspace_id: string;
  name: string;
  description: string | null;
  stage: string | null;
  group_number: number | null;
  execution_order: number | null;
  processing_mode: string;
  is_active: boolean;
  source_query: string | null;
  source_python_function: string | null;
  source_watermark_columns: string[];
  source_filter_expression: string | null;
  source_configure: JsonObject;
  load_type: string;
  merge_keys: string[];
  partition_columns: { column: string; expression: string | null }[];
  destination_configure: JsonObject;
  transform: JsonObject;
  configure: JsonObject;
  pinned_hint_schema_version_id: string | null;
}

export interface DataflowEnds {
  source: Connection;
  /** The source dataset's address; null for query and function sources. */
  sourceAddress: DatasetAddress | null;
  destination: Connection;
  destinationAddress: DatasetAddress;
}

type End = { schema_name: string | null; table: string | null };

/**
 * A dataflow row in DataCoolie's dataflow shape, each end led by what names its connection (the
 * connection itself, or its id in the snapshot) and its address. `workspaceId` is what its
 * `workspace_id` says (the workspace's code in served documents). The JSON objects are the stored
 * ones, in their stored key order.
 */
export function dataflowDocument<S extends End, D extends End>(
  row: DataflowRow,
  source: S,
  destination: D,
  partitionColumns: DataflowRow['partition_columns'] = row.partition_columns,
  workspaceId: string = row.workspace_id,
) {
  return {
    dataflow_id: row.datacoolie_id ?? row.id,
    workspace_id: workspaceId,
    name: row.name,
    description: row.description,
    stage: row.stage,
    group_number: row.group_number,
    execution_order: row.execution_order,
    processing_mode: row.processing_mode,
    is_active: row.is_active,
    source: {
      ...source,
      query: row.source_query,
      python_function: row.source_python_function,
      watermark_columns: row.source_watermark_columns,
      filter_expression: row.source_filter_expression,
      configure: row.source_configure,
    },
    destination: {
      ...destination,
      load_type: row.load_type,
      merge_keys: row.merge_keys,
      partition_columns: partitionColumns,
      configure: row.destination_configure,
    },
    transform: row.transform,
    configure: row.configure,
  };
}

/** The DataCoolie document of a dataflow; throws DataCoolie's ConfigurationError / MetadataError. */
export function exportDataflow(row: DataflowRow, ends: DataflowEnds): DataFlow {
  classifySourceQuery(row.source_query);
  return createDataflow(
    dataflowDocument(
      row,
      {
        connection: ends.source,
        schema_name: ends.sourceAddress?.schema_name ?? null,
        table: ends.sourceAddress?.table ?? null,
      },
      {
        connection: ends.destination,
        schema_name: ends.destinationAddress.schema_name,
        table: ends.destinationAddress.table,
      },
      row.partition_columns.map((p) => ({ column: p.column, expression: p.expression })),
    ),
  );
}
