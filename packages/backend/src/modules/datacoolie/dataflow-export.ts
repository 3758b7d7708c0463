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
}

export interface DataflowEnds {
  source: Connection;
  /** The source dataset's address; null for query and function sources. */
  sourceAddress: DatasetAddress | null;
  destination: Connection;
  destinationAddress: DatasetAddress;
}

/** The DataCoolie document of a dataflow; throws DataCoolie's ConfigurationError / MetadataError. */
export function exportDataflow(row: DataflowRow, ends: DataflowEnds): DataFlow {
  classifySourceQuery(row.source_query);
  return createDataflow({
    dataflow_id: row.id,
    workspace_id: row.workspace_id,
    name: row.name,
    description: row.description,
    stage: row.stage,
    group_number: row.group_number,
    execution_order: row.execution_order,
    processing_mode: row.processing_mode,
    is_active: row.is_active,
    source: {
      connection: ends.source,
      schema_name: ends.sourceAddress?.schema_name ?? null,
      table: ends.sourceAddress?.table ?? null,
      query: row.source_query,
      python_function: row.source_python_function,
      watermark_columns: row.source_watermark_columns,
      filter_expression: row.source_filter_expression,
      configure: row.source_configure,
    },
    destination: {
      connection: ends.destination,
      schema_name: ends.destinationAddress.schema_name,
      table: ends.destinationAddress.table,
      load_type: row.load_type,
      merge_keys: row.merge_keys,
      partition_columns: row.partition_columns.map((p) => ({ column: p.column, expression: p.expression })),
      configure: row.destination_configure,
    },
    transform: row.transform,
    configure: row.configure,
  });
}
