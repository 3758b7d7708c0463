export {
  createConnection,
  refreshFromConfigure,
  usesSchemaHint,
  type Connection,
  type ConnectionInput,
} from './connection.js';
export { createDataflow, replacesByWatermark, type DataFlow, type DataFlowInput } from './dataflow.js';
export {
  classifySourceQuery,
  createDestination,
  createPartitionColumn,
  createSource,
  dateBackward,
  sourceDateBackward,
  type Destination,
  type PartitionColumn,
  type Source,
  type SourceQueryKind,
} from './endpoints.js';
export { createSchemaHint, type SchemaHint, type SchemaHintInput } from './schema-hint.js';
export {
  createTransform,
  type AdditionalColumn,
  type HashColumn,
  type MaskingRule,
  type Transform,
  type ValueRule,
} from './transform.js';
