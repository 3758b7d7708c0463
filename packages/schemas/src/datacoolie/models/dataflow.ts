// `DataFlow` (reference §1.7): one source → transform → destination pipeline step.
import {
  asInputObject,
  displayValue,
  isUsableIdentifier,
  nameToUuid,
  optionalString,
  parseJsonObject,
  parseOptionalInteger,
  requireField,
  toBoolean,
  withFieldPath,
  type JsonObject,
} from '../coerce.js';
import { ConfigurationError } from '../errors.js';
import {
  createDestination,
  createSource,
  sourceDateBackward,
  type Destination,
  type Source,
} from './endpoints.js';
import { createTransform, type Transform } from './transform.js';

export interface DataFlow {
  /** Stable for the flow's life: watermarks are keyed by it. Null only when neither id nor name is usable. */
  dataflow_id: string | null;
  workspace_id: string | null;
  name: string | null;
  description: string | null;
  /** Free-form and case-sensitive; stage filters compare it exactly. */
  stage: string | null;
  group_number: number | null;
  execution_order: number | null;
  processing_mode: string;
  is_active: boolean;
  source: Source;
  destination: Destination;
  transform: Transform;
  configure: JsonObject;
}

export type DataFlowInput = Partial<Record<keyof DataFlow, unknown>> & Record<string, unknown>;

/** `destination.replace_by_watermark` (a configure flag). */
export function replacesByWatermark(destination: Destination): boolean {
  return toBoolean(destination.configure['replace_by_watermark']) === true;
}

function validateDataflow(dataflow: DataFlow): void {
  if (!replacesByWatermark(dataflow.destination)) return;
  if (sourceDateBackward(dataflow.source) === null) {
    throw new ConfigurationError(
      'replace_by_watermark requires date_backward on the source to ensure the read window covers the delete scope',
    );
  }
  if (dataflow.destination.load_type !== 'merge_overwrite') {
    throw new ConfigurationError(
      `replace_by_watermark is only supported with merge_overwrite load_type, got '${dataflow.destination.load_type}'`,
    );
  }
}

export function createDataflow(value: unknown): DataFlow {
  const input = asInputObject(value, 'DataFlow');
  const name = optionalString(input['name'], 'name');
  const rawId = input['dataflow_id'];
  const dataflowId = isUsableIdentifier(rawId) ? rawId : isUsableIdentifier(name) ? nameToUuid(name) : null;
  const sourceInput = requireField(input, 'source');
  const destinationInput = requireField(input, 'destination');
  const processingMode = input['processing_mode'] ?? 'batch';
  if (typeof processingMode !== 'string') {
    throw new ConfigurationError('processing_mode must be a string', { field: 'processing_mode' });
  }
  const isActive = input['is_active'] ?? true;
  if (typeof isActive !== 'boolean') {
    throw new ConfigurationError('DataFlow.is_active must be a boolean', { field: 'is_active' });
  }
  const workspaceId = input['workspace_id'] ?? null;
  const dataflow: DataFlow = {
    dataflow_id: dataflowId,
    workspace_id: workspaceId === null ? null : displayValue(workspaceId),
    name,
    description: optionalString(input['description'], 'description'),
    stage: optionalString(input['stage'], 'stage'),
    group_number: parseOptionalInteger(input['group_number'], 'group_number'),
    execution_order: parseOptionalInteger(input['execution_order'], 'execution_order'),
    processing_mode: processingMode.trim().toLowerCase(),
    is_active: isActive,
    source: withFieldPath('source', () => createSource(sourceInput)),
    destination: withFieldPath('destination', () => createDestination(destinationInput)),
    transform: withFieldPath('transform', () => createTransform(input['transform'])),
    configure: parseJsonObject(input['configure']),
  };
  validateDataflow(dataflow);
  return dataflow;
}
