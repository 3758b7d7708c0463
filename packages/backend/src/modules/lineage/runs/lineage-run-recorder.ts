import { createHash } from 'node:crypto';
import type {
  OpenLineageDataset,
  OpenLineageIntakeResult,
  ParsedOpenLineageEvent,
  ParsedOpenLineageRunEvent,
} from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { registerConstraintCodes } from '../../../common/errors/db-error.js';
import type { ReceivedEvent } from '../openlineage.repository.js';
import type { StoredDatasetRef } from './lineage-job-version.entity.js';
import type { LineageJobEntity } from './lineage-job.entity.js';
import { isTerminal, nextClock } from './lineage-run-state.js';
import type { LineageRunEntity } from './lineage-run.entity.js';

type Facets = Record<string, unknown>;

// The writes below upsert (ON CONFLICT) under the job's row lock, so none of these should fire; if one
// does (a dataset or job removed mid-event, a race past the lock), it answers with its own code.
registerConstraintCodes({
  fk_lineage_job_datasets_dataset: 'DATASET_NOT_FOUND',
  fk_lineage_run_datasets_dataset: 'DATASET_NOT_FOUND',
  fk_lineage_job_datasets_job: 'LINEAGE_JOB_NOT_FOUND',
  fk_lineage_job_versions_job: 'LINEAGE_JOB_NOT_FOUND',
  fk_lineage_runs_job: 'LINEAGE_JOB_NOT_FOUND',
  fk_lineage_jobs_version: 'LINEAGE_JOB_NOT_FOUND',
  fk_lineage_runs_version: 'LINEAGE_JOB_NOT_FOUND',
  fk_lineage_job_versions_run: 'LINEAGE_RUN_NOT_FOUND',
  fk_lineage_run_datasets_run: 'LINEAGE_RUN_NOT_FOUND',
  fk_lineage_run_events_run: 'LINEAGE_RUN_NOT_FOUND',
  fk_lineage_runs_parent: 'LINEAGE_RUN_NOT_FOUND',
  uq_lineage_jobs_name: 'VERSION_CONFLICT',
  uq_lineage_runs_run: 'VERSION_CONFLICT',
  uq_lineage_job_versions_hash: 'VERSION_CONFLICT',
  uq_lineage_job_versions_version: 'VERSION_CONFLICT',
  uq_lineage_run_datasets_name: 'VERSION_CONFLICT',
});
type Role = 'input' | 'output';

/**
 * Records jobs, job versions and runs from the events the intake takes (issue 27 §3, ADR 0053), in the
 * intake's transaction: a RunEvent updates its job and its run (state, times, facets, datasets, the
 * event as sent); a JobEvent updates its job and its version; a DatasetEvent touches neither. The job
 * row is locked first, so that one job's events are recorded one at a time (version numbers).
 */
@Injectable()
export class LineageRunRecorder {
  async record(
    received: ReceivedEvent,
    event: ParsedOpenLineageEvent,
    result: OpenLineageIntakeResult,
    m: EntityManager,
  ): Promise<void> {
    if (received.kind === 'dataset' || !received.job) return;
    const sent = event as ParsedOpenLineageRunEvent;
    const eventTime = new Date(received.eventTime);
    const job = await this.job(received.job, sent.job.facets ?? {}, eventTime, m);
    const refs = refsOf(sent, result);
    if (received.kind === 'job') {
      await this.makeCurrent(job, await this.version(job, refs.input, refs.output, null, m), m);
      return;
    }
    const run = await this.run(received, sent, job.id, eventTime, m);
    await this.datasets(run.id, sent, refs, eventTime, m);
    await m.query(
      `INSERT INTO lineage_run_events (event_key, lineage_run_id, event_type, event_time, event)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT (event_key) DO NOTHING`,
      [received.key, run.id, received.eventType, eventTime, event],
    );
    if (!isTerminal(run.state)) return;
    // A run that ended ran one version: its inputs and outputs so far (late events may add to them).
    const rows: (StoredDatasetRef & { role: Role })[] = await m.query(
      `SELECT role, namespace, name, dataset_id FROM lineage_run_datasets WHERE lineage_run_id = $1`,
      [run.id],
    );
    const versionId = await this.version(
      job,
      rows.filter((r) => r.role === 'input').map(storedRef),
      rows.filter((r) => r.role === 'output').map(storedRef),
      run.id,
      m,
    );
    await m.query(`UPDATE lineage_runs SET job_version_id = $2 WHERE id = $1`, [run.id, versionId]);
    await this.makeCurrent(job, versionId, m);
  }

  /**
   * The job's current version (that of the latest run to end or JobEvent recorded), and its inputs and
   * outputs as the job graph's edges when it changed.
   */
  private async makeCurrent(job: LineageJobEntity, versionId: string, m: EntityManager): Promise<void> {
    if (job.current_version_id === versionId) return;
    await m.query(`UPDATE lineage_jobs SET current_version_id = $2 WHERE id = $1`, [job.id, versionId]);
    await m.query(`DELETE FROM lineage_job_datasets WHERE job_id = $1`, [job.id]);
    await m.query(
      `INSERT INTO lineage_job_datasets (job_id, role, dataset_key, namespace, name, dataset_id)
       SELECT v.job_id, d.role, 'dataset:' || coalesce(d.dataset_id::text, d.namespace || '/' || d.name),
              d.namespace, d.name, d.dataset_id
       FROM lineage_job_versions v
       CROSS JOIN LATERAL (
         SELECT 'input' AS role, i.* FROM jsonb_to_recordset(v.inputs) AS i(namespace text, name text, dataset_id uuid)
         UNION ALL
         SELECT 'output', o.* FROM jsonb_to_recordset(v.outputs) AS o(namespace text, name text, dataset_id uuid)
       ) d
       WHERE v.id = $1
       ON CONFLICT DO NOTHING`,
      [versionId],
    );
  }

  /** The job, created on its first event, its facets merged (locked for the rest of the transaction). */
  private async job(
    ref: { namespace: string; name: string },
    facets: Facets,
    eventTime: Date,
    m: EntityManager,
  ): Promise<LineageJobEntity> {
    await m.query(
      `INSERT INTO lineage_jobs (namespace, name, facets_time) VALUES ($1, $2, $3)
       ON CONFLICT (namespace, name) DO NOTHING`,
      [ref.namespace, ref.name, eventTime],
    );
    // Just inserted or there before: always one row.
    const [stored]: LineageJobEntity[] = await m.query(
      `SELECT * FROM lineage_jobs WHERE namespace = $1 AND name = $2 FOR UPDATE`,
      [ref.namespace, ref.name],
    );
    const newer = eventTime >= new Date(stored.facets_time);
    stored.facets = mergeFacets(stored.facets, facets, newer);
    await m.query(
      `UPDATE lineage_jobs SET facets = $2, facets_time = GREATEST(facets_time, $3), updated_at = now()
       WHERE id = $1`,
      [stored.id, stored.facets, eventTime],
    );
    return stored;
  }

  /**
   * The job's version with these inputs, outputs, source code location and SQL (content-addressed), or a
   * new one numbered after the last, introduced by `runId`.
   */
  private async version(
    job: LineageJobEntity,
    inputs: StoredDatasetRef[],
    outputs: StoredDatasetRef[],
    runId: string | null,
    m: EntityManager,
  ): Promise<string> {
    const sourceCodeLocation = liveFacet(job.facets['sourceCodeLocation']);
    const sqlFacet = liveFacet(job.facets['sql']);
    const sql = typeof sqlFacet?.['query'] === 'string' ? sqlFacet['query'] : null;
    const location = sourceCodeLocation ? withoutBase(sourceCodeLocation) : null;
    const hash = contentHash({ inputs: names(inputs), outputs: names(outputs), location, sql });
    const [found]: { id: string }[] = await m.query(
      `SELECT id FROM lineage_job_versions WHERE job_id = $1 AND content_hash = $2`,
      [job.id, hash],
    );
    if (found) return found.id;
    const [created]: { id: string }[] = await m.query(
      `INSERT INTO lineage_job_versions
         (job_id, version, content_hash, inputs, outputs, source_code_location, sql, introduced_by_run_id)
       SELECT $1, COALESCE(MAX(version), 0) + 1, $2, $3, $4, $5, $6, $7
       FROM lineage_job_versions WHERE job_id = $1
       RETURNING id`,
      [job.id, hash, JSON.stringify(sorted(inputs)), JSON.stringify(sorted(outputs)), location, sql, runId],
    );
    return created.id;
  }

  /** The run after this event: its state machine, times, nominal time, parent and facets. */
  private async run(
    received: ReceivedEvent,
    event: ParsedOpenLineageRunEvent,
    jobId: string,
    eventTime: Date,
    m: EntityManager,
  ): Promise<LineageRunEntity> {
    const runId = received.runId as string;
    await m.query(
      `INSERT INTO lineage_runs (run_id, job_id, state, state_time, first_event_time, last_event_time)
       VALUES ($1, $2, 'NEW', $3, $3, $3) ON CONFLICT (run_id) DO NOTHING`,
      [runId, jobId, eventTime],
    );
    const [run]: LineageRunEntity[] = await m.query(
      `SELECT * FROM lineage_runs WHERE run_id = $1 FOR UPDATE`,
      [runId],
    );
    const clock = nextClock(
      {
        state: run.state,
        state_time: new Date(run.state_time),
        started_at: run.started_at && new Date(run.started_at),
        ended_at: run.ended_at && new Date(run.ended_at),
      },
      received.eventType ?? 'OTHER',
      eventTime,
    );
    const facets = mergeFacets(
      run.facets,
      event.run.facets ?? {},
      eventTime >= new Date(run.last_event_time),
    );
    const nominal = liveFacet(facets['nominalTime']);
    const parent = liveFacet(facets['parent']);
    const parentRun = parent?.['run'] as { runId?: unknown } | undefined;
    const parentJob = parent?.['job'] as { namespace?: unknown; name?: unknown } | undefined;
    const parentRunId = typeof parentRun?.runId === 'string' ? parentRun.runId.toLowerCase() : null;
    await m.query(
      `UPDATE lineage_runs SET state = $2, state_time = $3, started_at = $4, ended_at = $5,
         nominal_start_time = $6, nominal_end_time = $7, parent_run_id = $8, parent_job_namespace = $9,
         parent_job_name = $10,
         parent_id = (SELECT p.id FROM lineage_runs p WHERE p.run_id::text = $8),
         facets = $11, first_event_time = LEAST(first_event_time, $12),
         last_event_time = GREATEST(last_event_time, $12), updated_at = now()
       WHERE id = $1`,
      [
        run.id,
        clock.state,
        clock.state_time,
        clock.started_at,
        clock.ended_at,
        timeOf(nominal?.['nominalStartTime']),
        timeOf(nominal?.['nominalEndTime']),
        parentRunId,
        typeof parentJob?.namespace === 'string' ? parentJob.namespace : null,
        typeof parentJob?.name === 'string' ? parentJob.name : null,
        facets,
        eventTime,
      ],
    );
    // Children whose events came first find their parent now.
    await m.query(
      `UPDATE lineage_runs SET parent_id = $1 WHERE parent_run_id = $2 AND parent_id IS NULL AND id <> $1`,
      [run.id, runId],
    );
    return { ...run, state: clock.state };
  }

  /**
   * The event's inputs and outputs on the run, their input/output facets merged per name (the newer
   * event's win; `_deleted` removes): one statement whatever the number of datasets (ADR 0022, bounded work).
   */
  private async datasets(
    runId: string,
    event: ParsedOpenLineageRunEvent,
    refs: Record<Role, StoredDatasetRef[]>,
    eventTime: Date,
    m: EntityManager,
  ): Promise<void> {
    const rows = new Map<string, StoredDatasetRef & { role: Role; facets: Facets }>();
    const sent: [Role, OpenLineageDataset[]][] = [
      ['input', event.inputs ?? []],
      ['output', event.outputs ?? []],
    ];
    for (const [role, datasets] of sent) {
      for (const [i, dataset] of datasets.entries()) {
        const ref = refs[role][i];
        const facets = (role === 'input' ? dataset.inputFacets : dataset.outputFacets) ?? {};
        const k = `${role}\u0000${ref.namespace}\u0000${ref.name}`;
        // `_deleted` markers are kept here: the statement's merge removes what they name.
        rows.set(k, { ...ref, role, facets: { ...rows.get(k)?.facets, ...facets } });
      }
    }
    if (rows.size === 0) return;
    await m.query(
      `INSERT INTO lineage_run_datasets (lineage_run_id, role, namespace, name, dataset_id, facets, event_time)
       SELECT $1, d.role, d.namespace, d.name, d.dataset_id, d.facets, $3
       FROM jsonb_to_recordset($2::jsonb) AS d(role text, namespace text, name text, dataset_id uuid, facets jsonb)
       ON CONFLICT (lineage_run_id, role, namespace, name) DO UPDATE SET
         dataset_id = COALESCE(EXCLUDED.dataset_id, lineage_run_datasets.dataset_id),
         facets = (
           SELECT COALESCE(jsonb_object_agg(f.key, f.value), '{}'::jsonb)
           FROM jsonb_each(CASE WHEN EXCLUDED.event_time >= lineage_run_datasets.event_time
             THEN lineage_run_datasets.facets || EXCLUDED.facets
             ELSE EXCLUDED.facets || lineage_run_datasets.facets END) AS f
           WHERE f.value ->> '_deleted' IS DISTINCT FROM 'true'),
         event_time = GREATEST(lineage_run_datasets.event_time, EXCLUDED.event_time)`,
      [runId, JSON.stringify([...rows.values()]), eventTime],
    );
  }
}

/** The event's inputs and outputs (in its order), each with the dataset the intake matched to it. */
function refsOf(
  event: ParsedOpenLineageRunEvent,
  result: OpenLineageIntakeResult,
): Record<Role, StoredDatasetRef[]> {
  const matched = new Map<string, string>();
  for (const d of result.datasets) {
    if (d.status === 'matched' && d.dataset_id)
      matched.set(`${d.role}\u0000${d.namespace}\u0000${d.name}`, d.dataset_id);
  }
  const of = (role: Role, list: OpenLineageDataset[] | null | undefined) =>
    (list ?? []).map((d) => ({
      namespace: d.namespace,
      name: d.name,
      dataset_id: matched.get(`${role}\u0000${d.namespace}\u0000${d.name}`) ?? null,
    }));
  return { input: of('input', event.inputs), output: of('output', event.outputs) };
}

const storedRef = (r: StoredDatasetRef): StoredDatasetRef => ({
  namespace: r.namespace,
  name: r.name,
  dataset_id: r.dataset_id,
});

/**
 * Facets merged per name: the newer event's facet replaces the older's; a facet sent with `_deleted:
 * true` (spec 2-0) removes it.
 */
export function mergeFacets(stored: Facets, sent: Facets, sentIsNewer: boolean): Facets {
  const merged: Facets = sentIsNewer ? { ...stored, ...sent } : { ...sent, ...stored };
  for (const [name, facet] of Object.entries(merged)) {
    if (isRecord(facet) && facet['_deleted'] === true) delete merged[name];
  }
  return merged;
}

function liveFacet(facet: unknown): Facets | null {
  return isRecord(facet) && facet['_deleted'] !== true ? facet : null;
}

function isRecord(value: unknown): value is Facets {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A facet without its `_producer` and `_schemaURL`: the same location from another producer is the same. */
function withoutBase(facet: Facets): Facets {
  const { _producer: _p, _schemaURL: _s, ...rest } = facet;
  return rest;
}

/** A timestamp a facet gives, or null when it gives none or an unreadable one. */
function timeOf(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? null : time;
}

const names = (refs: StoredDatasetRef[]) =>
  [...new Set(refs.map((r) => `${r.namespace}\u0000${r.name}`))].sort();

function sorted(refs: StoredDatasetRef[]): StoredDatasetRef[] {
  const seen = new Set<string>();
  return [...refs]
    .sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name))
    .filter((r) => {
      const k = `${r.namespace}\u0000${r.name}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
}

function contentHash(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}
