// Jobs, job versions and runs recorded from OpenLineage events (issue 27 §3, ADR 0053): Marquez's model,
// read-only. The intake records them; these are the shapes the read routes answer.
import { z } from 'zod';
import { keysetPageOf, type ListSpec, listQuerySchema } from '../common/list-query.js';
import { LINEAGE_DIRECTIONS, LineageQuerySchema } from './lineage.js';

const timestamp = z.iso.datetime({ offset: true });
const facets = z.record(z.string(), z.unknown());

/** NEW → RUNNING → COMPLETED | FAILED | ABORTED (ADR 0053: event types, late events, OTHER). */
export const LINEAGE_RUN_STATES = ['NEW', 'RUNNING', 'COMPLETED', 'FAILED', 'ABORTED'] as const;
export const LineageRunStateSchema = z.enum(LINEAGE_RUN_STATES);
export type LineageRunState = z.infer<typeof LineageRunStateSchema>;

export const LINEAGE_RUN_DATASET_ROLES = ['input', 'output'] as const;

/** A dataset an event names: the registered dataset when the intake matched one, else only its name. */
export const LineageDatasetRefSchema = z
  .object({
    namespace: z.string(),
    name: z.string(),
    dataset_id: z.uuid().nullable().describe('The registered dataset the intake matched, or null'),
  })
  .meta({ id: 'LineageDatasetRef' });
export type LineageDatasetRef = z.infer<typeof LineageDatasetRefSchema>;

/** A run in short, as jobs and dataset histories name it. */
export const LineageRunSummarySchema = z
  .object({
    id: z.uuid(),
    run_id: z.uuid().describe('The OpenLineage runId'),
    state: LineageRunStateSchema,
    started_at: timestamp.nullable(),
    ended_at: timestamp.nullable(),
  })
  .meta({ id: 'LineageRunSummary' });

export const LineageJobSchema = z
  .object({
    id: z.uuid(),
    namespace: z.string(),
    name: z.string(),
    type: z
      .object({
        processing_type: z.string().nullable(),
        integration: z.string().nullable(),
        job_type: z.string().nullable(),
      })
      .nullable()
      .describe('The `jobType` facet (null when never sent)'),
    source_code_location: facets.nullable().describe('The `sourceCodeLocation` facet, as sent'),
    sql: z.string().nullable().describe("The `sql` facet's query"),
    description: z.string().nullable().describe('The `documentation` facet'),
    ownership: facets.nullable().describe('The `ownership` facet, as sent'),
    facets: facets.describe('Every job facet, the latest of each name (by eventTime)'),
    current_version: z.int().nullable().describe('The version of the latest run or JobEvent'),
    inputs: z.array(LineageDatasetRefSchema).describe("The current version's inputs"),
    outputs: z.array(LineageDatasetRefSchema).describe("The current version's outputs"),
    latest_run: LineageRunSummarySchema.nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'LineageJob' });
export type LineageJob = z.infer<typeof LineageJobSchema>;

export const LineageJobVersionSchema = z
  .object({
    id: z.uuid(),
    job_id: z.uuid(),
    version: z.int().min(1),
    inputs: z.array(LineageDatasetRefSchema),
    outputs: z.array(LineageDatasetRefSchema),
    source_code_location: facets.nullable(),
    sql: z.string().nullable(),
    introduced_by_run: LineageRunSummarySchema.nullable().describe('Null when a JobEvent introduced it'),
    created_at: timestamp,
  })
  .meta({ id: 'LineageJobVersion' });
export type LineageJobVersion = z.infer<typeof LineageJobVersionSchema>;

/** An input or output of a run, with the input/output facets of its events (the latest of each name). */
export const LineageRunDatasetSchema = LineageDatasetRefSchema.extend({
  facets: facets.describe('`inputFacets` / `outputFacets` as sent (dataQualityMetrics, outputStatistics, …)'),
}).meta({ id: 'LineageRunDataset' });

export const LineageRunSchema = z
  .object({
    id: z.uuid(),
    run_id: z.uuid().describe('The OpenLineage runId'),
    job: z.object({ id: z.uuid(), namespace: z.string(), name: z.string() }),
    job_version: z.int().nullable().describe('The job version it ran (known once it ended)'),
    state: LineageRunStateSchema,
    started_at: timestamp.nullable().describe('The eventTime of its START (else first RUNNING)'),
    ended_at: timestamp.nullable().describe('The eventTime of its COMPLETE, FAIL or ABORT'),
    duration_ms: z.int().nullable(),
    nominal_start_time: timestamp.nullable(),
    nominal_end_time: timestamp.nullable(),
    parent: z
      .object({
        run_id: z.string(),
        job_namespace: z.string().nullable(),
        job_name: z.string().nullable(),
        id: z.uuid().nullable().describe("The parent's AIDE id once its events arrived"),
      })
      .nullable()
      .describe('The `parent` facet'),
    error: z
      .object({
        message: z.string().nullable(),
        programming_language: z.string().nullable(),
        stack_trace: z.string().nullable(),
      })
      .nullable()
      .describe('The `errorMessage` facet'),
    facets: facets.describe('Every run facet, the latest of each name (by eventTime)'),
    inputs: z.array(LineageRunDatasetSchema),
    outputs: z.array(LineageRunDatasetSchema),
    first_event_time: timestamp,
    last_event_time: timestamp,
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'LineageRun' });
export type LineageRun = z.infer<typeof LineageRunSchema>;

/** One event of a run, as it was sent. */
export const LineageRunEventSchema = z
  .object({
    event_type: z.string(),
    event_time: timestamp,
    received_at: timestamp,
    event: facets.describe('The event as sent'),
  })
  .meta({ id: 'LineageRunEvent' });
export type LineageRunEvent = z.infer<typeof LineageRunEventSchema>;

/** A dataset's part in one run: read (input) or written (output). */
export const DatasetRunSchema = z
  .object({
    role: z.enum(LINEAGE_RUN_DATASET_ROLES),
    run: LineageRunSummarySchema,
    job: z.object({ id: z.uuid(), namespace: z.string(), name: z.string() }),
    event_time: timestamp.describe('The eventTime of the latest event of the run naming the dataset'),
    facets,
  })
  .meta({ id: 'DatasetRun' });
export type DatasetRun = z.infer<typeof DatasetRunSchema>;

export const lineageJobList: ListSpec = {
  filters: {
    namespace: { type: 'string', ops: ['eq', 'in'] },
    name: { type: 'string', ops: ['eq', 'like'] },
  },
  sortable: ['namespace', 'name', 'created_at', 'updated_at'],
  defaultSort: 'namespace,name',
  softDelete: false,
};

export const lineageJobVersionList: ListSpec = {
  filters: {},
  sortable: ['version', 'created_at'],
  defaultSort: '-version',
  softDelete: false,
};

export const lineageRunList: ListSpec = {
  filters: { state: { type: 'string', ops: ['eq', 'in'], values: LINEAGE_RUN_STATES } },
  sortable: ['first_event_time', 'started_at', 'ended_at', 'created_at'],
  defaultSort: '-first_event_time',
  softDelete: false,
};

export const datasetRunList: ListSpec = {
  filters: { role: { type: 'string', ops: ['eq'], values: LINEAGE_RUN_DATASET_ROLES } },
  sortable: ['event_time'],
  defaultSort: '-event_time',
  softDelete: false,
};

export const LineageJobQuerySchema = listQuerySchema(lineageJobList);
export const LineageJobVersionQuerySchema = listQuerySchema(lineageJobVersionList);
export const LineageRunQuerySchema = listQuerySchema(lineageRunList);
export const DatasetRunQuerySchema = listQuerySchema(datasetRunList);

export const LineageJobPageSchema = keysetPageOf(LineageJobSchema);
export const LineageJobVersionPageSchema = keysetPageOf(LineageJobVersionSchema);
export const LineageRunPageSchema = keysetPageOf(LineageRunSchema);
export const DatasetRunPageSchema = keysetPageOf(DatasetRunSchema);

/** A node of the job graph: `job:<id>` or `dataset:<registered id>` (`dataset:<namespace>/<name>` when unregistered). */
export const JOB_GRAPH_NODE =
  /^(job|dataset):[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** The query of the job graph: its root node, then the direction, depth and paging of every graph read. */
export const LineageJobGraphQuerySchema = LineageQuerySchema.extend({
  node: z
    .string()
    .regex(JOB_GRAPH_NODE, { message: 'must be job:<id> or dataset:<id>' })
    .transform((v) => v.toLowerCase())
    .describe('The root: `job:<job id>` or `dataset:<dataset id>`'),
}).meta({ id: 'LineageJobGraphQuery' });
export type LineageJobGraphQuery = z.output<typeof LineageJobGraphQuerySchema>;

export const LineageJobGraphNodeSchema = z
  .object({
    key: z.string().describe('`job:<id>`, `dataset:<id>` or `dataset:<namespace>/<name>` (unregistered)'),
    type: z.enum(['job', 'dataset']),
    id: z.uuid().nullable().describe('The job, or the registered dataset (null when unregistered)'),
    namespace: z.string().nullable(),
    name: z.string().nullable().describe("The job's or the OpenLineage dataset's name"),
    object_name: z.string().nullable().describe("A registered dataset's object name"),
    upstream_depth: z.int().nullable(),
    downstream_depth: z.int().nullable(),
  })
  .meta({ id: 'LineageJobGraphNode' });

export const LineageJobGraphEdgeSchema = z
  .object({
    source: z.string(),
    target: z.string(),
    role: z.enum(LINEAGE_RUN_DATASET_ROLES).describe('input: dataset → job; output: job → dataset'),
  })
  .meta({ id: 'LineageJobGraphEdge' });

export const LineageJobGraphSchema = z
  .object({
    root: z.string(),
    direction: z.enum(LINEAGE_DIRECTIONS),
    depth: z.int(),
    page: z.int(),
    size: z.int(),
    pages: z.int(),
    total_nodes: z.int(),
    total_edges: z.int(),
    nodes: z.array(LineageJobGraphNodeSchema),
    edges: z.array(LineageJobGraphEdgeSchema),
  })
  .meta({ id: 'LineageJobGraph' });
export type LineageJobGraph = z.infer<typeof LineageJobGraphSchema>;
