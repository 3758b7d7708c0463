// `aide-provider import`'s request (ADR 0050): DataCoolie documents loaded and checked as DataCoolie's
// FileProvider loads them, sent as their resolved scope — the models as DataCoolie dumps them. The
// registry computes the plan and applies it in one transaction; nothing is mapped here.
import {
  DataCoolieImportPlanSchema,
  type DataCoolieImportPlan,
  type DataCoolieImportRequest,
} from '@aide/schemas';
import { AideApiError, type AideClient } from '@aide/sdk';
import type { Connection, DataFlow, JsonObject } from '@aide/schemas/datacoolie';
import { connectionDescriptions, loadMetadataDocuments, type MetadataDocumentSource } from '../document.js';
import { validateInitializedScope } from '../validation.js';

export interface ImportRequestOptions {
  /** The workspace: its id or code (a code that names no workspace creates one). */
  workspace?: string;
  /** Plan and check inside a transaction that is rolled back. */
  dryRun?: boolean;
  /** Also delete the workspace's connections, dataflows and hint groups the documents do not name. */
  prune?: boolean;
  /** Connection name → the system (id or code) its profile is made over, where matching cannot tell. */
  systems?: Readonly<Record<string, string>>;
}

type RequestConnection = NonNullable<DataCoolieImportRequest['connections']>[number];
type RequestDataflow = NonNullable<DataCoolieImportRequest['dataflows']>[number];

/** Plain JSON of a model (models are plain data: this drops nothing but `undefined`). */
const plain = <T>(value: unknown): T => JSON.parse(JSON.stringify(value)) as T;

/** A dataflow as the snapshot writes it: its ends name their connection by id, in the model's key order. */
export function snapshotDataflow(dataflow: DataFlow): RequestDataflow {
  const { connection: source, ...sourceRest } = dataflow.source;
  const { connection: destination, ...destinationRest } = dataflow.destination;
  return plain({
    ...dataflow,
    source: { connection_id: source.connection_id, ...sourceRest },
    destination: { connection_id: destination.connection_id, ...destinationRest },
  });
}

/**
 * The import request of a set of documents. Throws DataCoolie's MetadataError (with its reason) for a
 * document DataCoolie would refuse. Connections defined inline in a dataflow are listed too (the
 * request's dataflows name connections by id). Hints keep the documents' order: the loader does not
 * reorder them (the start-up validation sorts a copy).
 */
export function importRequestOf(
  documents: readonly MetadataDocumentSource[],
  options: ImportRequestOptions = {},
): DataCoolieImportRequest {
  const { connections, dataflows, schemaHints } = loadMetadataDocuments(documents);
  validateInitializedScope(connections, dataflows, schemaHints);
  const descriptions = connectionDescriptions(documents);
  const listed: RequestConnection[] = connections.map((connection, index) => {
    const description = descriptions[index];
    return plain({ ...connection, ...(typeof description === 'string' ? { description } : {}) });
  });
  const known = new Set(connections.map((c) => c.connection_id));
  const inline: Connection[] = [];
  for (const dataflow of dataflows) {
    for (const connection of [dataflow.source.connection, dataflow.destination.connection]) {
      if (!known.has(connection.connection_id)) {
        known.add(connection.connection_id);
        inline.push(connection);
      }
    }
  }
  return {
    connections: [...listed, ...inline.map((c) => plain<RequestConnection>(c))],
    dataflows: dataflows.map(snapshotDataflow),
    schema_hints: schemaHints.map((group) =>
      plain<JsonObject>({
        connection_id: group.connection_id,
        schema_name: group.schema_name,
        table_name: group.table_name,
        hints: group.hints,
      }),
    ) as DataCoolieImportRequest['schema_hints'],
    dry_run: options.dryRun === true,
    prune: options.prune === true,
    systems: { ...options.systems },
  };
}

/** The plan the registry answered, and whether it refused it (422 `DATACOOLIE_IMPORT_INVALID`). */
export interface ImportOutcome {
  plan: DataCoolieImportPlan;
  /** True when the plan has problems: nothing was written. */
  refused: boolean;
}

/** The plan a 422 `DATACOOLIE_IMPORT_INVALID` carries under `details.plan`, or null for other errors. */
function refusedPlan(error: unknown): DataCoolieImportPlan | null {
  if (!(error instanceof AideApiError) || error.errorCode !== 'DATACOOLIE_IMPORT_INVALID') return null;
  const parsed = DataCoolieImportPlanSchema.safeParse(error.details?.['plan']);
  return parsed.success ? parsed.data : null;
}

/** Sends an import request; a plan with problems resolves with `refused: true` (nothing written). */
export async function sendImportRequest(
  client: AideClient,
  workspace: string,
  request: DataCoolieImportRequest,
): Promise<ImportOutcome> {
  try {
    return { plan: await client.datacoolie.importDocument(workspace, request), refused: false };
  } catch (error) {
    const plan = refusedPlan(error);
    if (plan === null) throw error;
    return { plan, refused: true };
  }
}

/**
 * Imports documents into a workspace as one plan applied in one transaction (ADR 0050). A plan with
 * problems resolves with `refused: true` (nothing written); a document DataCoolie refuses throws its
 * MetadataError before anything is sent; other registry errors throw the SDK's error.
 */
export function importWorkspaceDocuments(
  client: AideClient,
  documents: readonly MetadataDocumentSource[],
  options: ImportRequestOptions & { workspace: string },
): Promise<ImportOutcome> {
  return sendImportRequest(client, options.workspace, importRequestOf(documents, options));
}
