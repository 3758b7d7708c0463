import { z } from 'zod';
import { text } from '../common/text.js';
import {
  DataCoolieConnectionSchema,
  DataCoolieSchemaHintGroupSchema,
  DataCoolieSnapshotDataflowSchema,
} from './datacoolie-snapshot.js';

// A DataCoolie metadata document moved into a workspace as one plan applied in one transaction
// (ADR 0050): the request is the document's resolved scope — what DataCoolie's FileProvider loads from
// it — and the answer is the plan, per object, with field-level changes.

/**
 * The document's scope as DataCoolie loads it: connections (model dumps, plus `description` when the
 * document gave one: DataCoolie drops it, the registry keeps it), dataflows whose ends name their
 * connection by id, and hint groups keyed by source connection id, their hints in document order.
 * The server runs DataCoolie's own models and start-up validation on it again.
 */
export const DataCoolieImportRequestSchema = z
  .strictObject({
    connections: z.array(DataCoolieConnectionSchema).max(5_000).default([]),
    dataflows: z.array(DataCoolieSnapshotDataflowSchema).max(20_000).default([]),
    schema_hints: z.array(DataCoolieSchemaHintGroupSchema).max(20_000).default([]),
    dry_run: z
      .boolean()
      .default(false)
      .describe('Plan and check everything the real run would, inside a transaction that is rolled back'),
    prune: z
      .boolean()
      .default(false)
      .describe(
        "Also delete the workspace's connections, dataflows and hint groups the document does not name",
      ),
    systems: z
      .record(text(255), text(255))
      .default({})
      .describe(
        'Connection name → the system (id or code) its profile is made over, where matching cannot tell',
      ),
  })
  .meta({ id: 'DataCoolieImportRequest' });
export type DataCoolieImportRequest = z.input<typeof DataCoolieImportRequestSchema>;

export const DATACOOLIE_IMPORT_KINDS = [
  'workspace',
  'credential_ref',
  'dataset',
  'connection',
  'dataflow',
  'schema_hint_group',
] as const;
export type DataCoolieImportKind = (typeof DATACOOLIE_IMPORT_KINDS)[number];

export const DATACOOLIE_IMPORT_ACTIONS = ['create', 'update', 'unchanged', 'delete'] as const;
export type DataCoolieImportAction = (typeof DATACOOLIE_IMPORT_ACTIONS)[number];

/** One field an update changes: its value in the registry and in the document. */
export const DataCoolieImportChangeSchema = z
  .object({ field: z.string(), before: z.unknown(), after: z.unknown() })
  .meta({ id: 'DataCoolieImportChange' });
export type DataCoolieImportChange = z.infer<typeof DataCoolieImportChangeSchema>;

export const DataCoolieImportItemSchema = z
  .object({
    kind: z.enum(DATACOOLIE_IMPORT_KINDS),
    name: z
      .string()
      .describe(
        'The object as a person finds it in the document: a connection or dataflow name, ' +
          '`<connection>: <schema>.<table>` for datasets and hint groups, `<store> <path>` for secrets',
      ),
    datacoolie_id: z
      .string()
      .nullable()
      .describe("The document's id (connection_id, dataflow_id); null for other kinds"),
    id: z
      .uuid()
      .nullable()
      .describe('The registry id: of the row found, or of the row created (null in a dry run)'),
    action: z.enum(DATACOOLIE_IMPORT_ACTIONS),
    changes: z.array(DataCoolieImportChangeSchema).describe('For an update: every field it changes'),
  })
  .meta({ id: 'DataCoolieImportItem' });
export type DataCoolieImportItem = z.infer<typeof DataCoolieImportItemSchema>;

/** Why an object cannot be imported: DataCoolie's own message, or the registry's rule and code. */
export const DataCoolieImportProblemSchema = z
  .object({
    kind: z.enum([...DATACOOLIE_IMPORT_KINDS, 'schema_hint']),
    name: z.string(),
    reason: z.string(),
    code: z.string().nullable().describe("The registry's error code when a registry rule refused it"),
  })
  .meta({ id: 'DataCoolieImportProblem' });
export type DataCoolieImportProblem = z.infer<typeof DataCoolieImportProblemSchema>;

/**
 * The plan of an import and whether it was applied. Items come in the order they are applied
 * (deletions of dataflows and hint groups before those of connections). A plan with problems is never
 * applied: the answer is then 422 `DATACOOLIE_IMPORT_INVALID` with this plan under `details.plan`.
 */
export const DataCoolieImportPlanSchema = z
  .object({
    workspace: z.object({
      id: z.uuid().nullable().describe('Null when a dry run would create it'),
      code: z.string(),
      action: z.enum(['create', 'unchanged']),
    }),
    dry_run: z.boolean(),
    prune: z.boolean(),
    applied: z.boolean().describe('True when the plan was written (not a dry run, no problems)'),
    items: z.array(DataCoolieImportItemSchema),
    summary: z.object({
      create: z.int(),
      update: z.int(),
      unchanged: z.int(),
      delete: z.int(),
    }),
    problems: z.array(DataCoolieImportProblemSchema),
  })
  .meta({ id: 'DataCoolieImportPlan' });
export type DataCoolieImportPlan = z.infer<typeof DataCoolieImportPlanSchema>;
