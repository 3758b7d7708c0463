// A document's dataflow as the registry row it makes (`dataflowView`, as the old client-side importer
// mapped it), and what differs from a stored row (`dataflowChanges`, in the document's terms: ends by
// connection id and dataset object name, JSON objects one key at a time).
import type { CreateDataflow, DataCoolieImportChange } from '@aide/schemas';
import type { ImportDataflowRow } from './datacoolie-import.repository.js';
import type { DocumentDataflow } from './import-document.js';
import { fieldChange, objectChanges } from './plan-changes.js';

/** The columns of a dataflow a document gives, besides its ends. */
export function dataflowView(d: DocumentDataflow, query: string | null, fn: string | null) {
  const { built, written: w } = d;
  const src = built.source;
  const dst = built.destination;
  return {
    name: d.name,
    description: built.description,
    stage: built.stage,
    group_number: built.group_number,
    execution_order: built.execution_order,
    processing_mode: built.processing_mode as CreateDataflow['processing_mode'] & string,
    is_active: built.is_active,
    source_query: query,
    source_python_function: fn,
    source_watermark_columns: src.watermark_columns,
    source_filter_expression: src.filter_expression,
    source_configure: w.source.configure,
    load_type: dst.load_type as CreateDataflow['load_type'] & string,
    merge_keys: dst.merge_keys,
    partition_columns: dst.partition_columns,
    destination_configure: w.destination.configure,
    transform: w.transform,
    configure: w.configure,
  };
}

export type DataflowView = ReturnType<typeof dataflowView>;

/** A dataflow's ends as a document names them. */
export interface DataflowEnds {
  source: string;
  sourceDataset: string | null;
  destination: string;
  destinationDataset: string;
}

/** Every field a document changes on a stored dataflow. */
export function dataflowChanges(
  row: ImportDataflowRow,
  view: DataflowView,
  ends: DataflowEnds,
): DataCoolieImportChange[] {
  return [
    ...fieldChange('name', row.name, view.name),
    ...fieldChange('description', row.description, view.description),
    ...fieldChange('stage', row.stage, view.stage),
    ...fieldChange('group_number', row.group_number, view.group_number),
    ...fieldChange('execution_order', row.execution_order, view.execution_order),
    ...fieldChange('processing_mode', row.processing_mode, view.processing_mode),
    ...fieldChange('is_active', row.is_active, view.is_active),
    ...fieldChange('source.connection_id', row.source_connection, ends.source),
    ...fieldChange('source.dataset', row.source_dataset, ends.sourceDataset),
    ...fieldChange('source.query', row.source_query, view.source_query),
    ...fieldChange('source.python_function', row.source_python_function, view.source_python_function),
    ...fieldChange('source.watermark_columns', row.source_watermark_columns, view.source_watermark_columns),
    ...fieldChange('source.filter_expression', row.source_filter_expression, view.source_filter_expression),
    ...objectChanges('source.configure', row.source_configure, view.source_configure),
    ...fieldChange('destination.connection_id', row.destination_connection, ends.destination),
    ...fieldChange('destination.dataset', row.destination_dataset, ends.destinationDataset),
    ...fieldChange('destination.load_type', row.load_type, view.load_type),
    ...fieldChange('destination.merge_keys', row.merge_keys, view.merge_keys),
    ...fieldChange('destination.partition_columns', row.partition_columns, view.partition_columns),
    ...objectChanges('destination.configure', row.destination_configure, view.destination_configure),
    ...objectChanges('transform', row.transform, view.transform),
    ...objectChanges('configure', row.configure, view.configure),
  ];
}
