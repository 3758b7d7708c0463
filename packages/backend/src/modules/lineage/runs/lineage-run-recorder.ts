import { createHash } from 'node:crypto';
import type {
  OpenLineageDataset,
  OpenLineageEventType,
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
import { isTerminal, nextClock, type RunClock } from './lineage-run-state.js';
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

/** What the recorder reads of a job: its facets (merged) and its current version. */
type JobRow = Pick<LineageJobEntity, 'id' | 'current_version_id' | 'facets'>;

/** A run's dataset as stored, with its role. */
type RunDataset = StoredDatasetRef & { role: Role };

/** What a run's statement (`RUN_EVENT`) reads back: the run's datasets before it, and those it wrote. */
interface RunDatasetRow extends RunDataset {
  written: boolean;
}

/** Canonical UUID text (what `uuid::text` gives): compared as a uuid, the run-id index finds it. */
const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Facets merged per name in SQL, as `mergeFacets` does in JS: `stored` and `sent` jsonb objects,
 * `newer` whether the sent ones win; an entry that is an object with `_deleted: true` is removed (the
 * `->` of a scalar or an array is null).
 */
const MERGED_FACETS = (stored: string, sent: string, newer: string) =>
  `(SELECT coalesce(jsonb_object_agg(f.key, f.value), '{}'::jsonb)
    FROM jsonb_each(CASE WHEN ${newer} THEN ${stored} || ${sent} ELSE ${sent} || ${stored} END) AS f
    WHERE (f.value -> '_deleted') IS DISTINCT FROM 'true'::jsonb)`;

/**
 * The job, created on its first event or its facets merged (the newer event's win), and locked for the
 * rest of the transaction (the upsert's row lock): one statement.
 */
const UPSERT_JOB = `INSERT INTO lineage_jobs AS j (namespace, name, facets, facets_time) VALUES ($1, $2, $3, $4)
  ON CONFLICT (namespace, name) DO UPDATE SET
    facets = ${MERGED_FACETS('j.facets', '$5::jsonb', '$4 >= j.facets_time')},
    facets_time = GREATEST(j.facets_time, $4), updated_at = now()
  RETURNING *`;

/**
 * A RunEvent's job (`UPSERT_JOB`, locked first) and its run: inserted as this event makes it when it is
 * new; else locked (a no-op update, which takes the row lock as FOR UPDATE would) and read, for the
 * state machine to run on it; `inserted` says which. One statement.
 */
const UPSERT_JOB_AND_RUN = `WITH job AS (${UPSERT_JOB}),
  run AS (
    INSERT INTO lineage_runs AS r (run_id, job_id, state, state_time, started_at, ended_at,
      nominal_start_time, nominal_end_time, parent_run_id, parent_job_namespace, parent_job_name, parent_id,
      facets, first_event_time, last_event_time)
    SELECT $6, job.id, $7, $8, $9, $10, $11, $12, $13, $14, $15,
      (SELECT p.id FROM lineage_runs p WHERE p.run_id = $16::uuid), $17, $4, $4
    FROM job
    ON CONFLICT (run_id) DO UPDATE SET run_id = r.run_id
    RETURNING *, (xmax = 0) AS inserted)
  SELECT job.id AS job_ref, job.current_version_id AS job_current_version_id, job.facets AS job_facets, run.*
  FROM job, run`;

/**
 * The rest of a RunEvent on its run, in one statement: the run's new state (when it existed before:
 * $15), the children whose events came first given their parent, the event as sent, and the event's
 * inputs and outputs with their facets merged per name (the newer event's win; `_deleted` removes).
 * When $16 (the run has ended), the run's datasets are read back: those stored before this statement
 * (its snapshot) and those it wrote, for the version.
 */
const RUN_EVENT = `WITH updated AS (
    UPDATE lineage_runs SET state = $2, state_time = $3, started_at = $4, ended_at = $5,
      nominal_start_time = $6, nominal_end_time = $7, parent_run_id = $8, parent_job_namespace = $9,
      parent_job_name = $10, parent_id = (SELECT p.id FROM lineage_runs p WHERE p.run_id = $11::uuid),
      facets = $12, first_event_time = LEAST(first_event_time, $13),
      last_event_time = GREATEST(last_event_time, $13), updated_at = now()
    WHERE id = $1 AND $15::boolean
    RETURNING id),
  children AS (
    UPDATE lineage_runs SET parent_id = $1 WHERE parent_run_id = $14 AND parent_id IS NULL AND id <> $1
    RETURNING id),
  event AS (
    INSERT INTO lineage_run_events (event_key, lineage_run_id, event_type, event_time, event)
    VALUES ($17, $1, $18, $13, $19) ON CONFLICT (event_key) DO NOTHING
    RETURNING event_key),
  written AS (
    INSERT INTO lineage_run_datasets AS rd (lineage_run_id, role, namespace, name, dataset_id, facets, event_time)
    SELECT $1, d.role, d.namespace, d.name, d.dataset_id, d.facets, $13
    FROM jsonb_to_recordset($20::jsonb) AS d(role text, namespace text, name text, dataset_id uuid, facets jsonb)
    ON CONFLICT (lineage_run_id, role, namespace, name) DO UPDATE SET
      dataset_id = COALESCE(EXCLUDED.dataset_id, rd.dataset_id),
      facets = (
        SELECT COALESCE(jsonb_object_agg(f.key, f.value), '{}'::jsonb)
        FROM jsonb_each(CASE WHEN EXCLUDED.event_time >= rd.event_time
          THEN rd.facets || EXCLUDED.facets
          ELSE EXCLUDED.facets || rd.facets END) AS f
        WHERE f.value ->> '_deleted' IS DISTINCT FROM 'true'),
      event_time = GREATEST(rd.event_time, EXCLUDED.event_time)
    RETURNING role, namespace, name, dataset_id)
  SELECT role, namespace, name, dataset_id, false AS written FROM lineage_run_datasets
  WHERE lineage_run_id = $1 AND $16::boolean
  UNION ALL
  SELECT role, namespace, name, dataset_id, true FROM written WHERE $16::boolean`;

/**
 * The job's version with this content hash, or a new one numbered after the last (the job's row lock
 * serialises them); with $8, the run that ended is set to run it. One statement.
 */
const VERSION = `WITH found AS (
    SELECT id FROM lineage_job_versions WHERE job_id = $1 AND content_hash = $2),
  created AS (
    INSERT INTO lineage_job_versions
      (job_id, version, content_hash, inputs, outputs, source_code_location, sql, introduced_by_run_id)
    SELECT $1, COALESCE(MAX(version), 0) + 1, $2, $3, $4, $5, $6, $7
    FROM lineage_job_versions WHERE job_id = $1
    HAVING NOT EXISTS (SELECT 1 FROM found)
    RETURNING id),
  version AS (SELECT id FROM found UNION ALL SELECT id FROM created),
  run AS (
    UPDATE lineage_runs SET job_version_id = (SELECT id FROM version)
    WHERE id = $8 AND job_version_id IS DISTINCT FROM (SELECT id FROM version)
    RETURNING id)
  SELECT id FROM version`;

/**
 * The job's current version and its inputs and outputs as the job graph's edges (`dataset:<id>`, or
 * `dataset:<namespace>/<name>` for an unregistered one; the first of a version's refs with one key
 * wins), in one statement: the edges the version no longer has deleted, the others inserted or updated
 * (the two touch different keys).
 */
const MAKE_CURRENT = `WITH job AS (UPDATE lineage_jobs SET current_version_id = $2 WHERE id = $1),
  edges AS (
    SELECT DISTINCT ON (d.role, d.dataset_key) d.role, d.dataset_key, d.namespace, d.name, d.dataset_id
    FROM lineage_job_versions v
    CROSS JOIN LATERAL (
      SELECT r.role, 'dataset:' || coalesce(x.dataset_id::text, x.namespace || '/' || x.name) AS dataset_key,
             x.namespace, x.name, x.dataset_id, x.n
      FROM (VALUES ('input', v.inputs), ('output', v.outputs)) AS r(role, refs)
      CROSS JOIN LATERAL ROWS FROM (jsonb_to_recordset(r.refs) AS (namespace text, name text, dataset_id uuid))
        WITH ORDINALITY AS x(namespace, name, dataset_id, n)) d
    WHERE v.id = $2
    ORDER BY d.role, d.dataset_key, d.n),
  gone AS (
    DELETE FROM lineage_job_datasets o WHERE o.job_id = $1
      AND NOT EXISTS (SELECT 1 FROM edges e WHERE e.role = o.role AND e.dataset_key = o.dataset_key))
  INSERT INTO lineage_job_datasets AS o (job_id, role, dataset_key, namespace, name, dataset_id)
  SELECT $1, role, dataset_key, namespace, name, dataset_id FROM edges
  ON CONFLICT (job_id, role, dataset_key) DO UPDATE
    SET namespace = EXCLUDED.namespace, name = EXCLUDED.name, dataset_id = EXCLUDED.dataset_id
    WHERE (o.namespace, o.name, o.dataset_id) IS DISTINCT FROM (EXCLUDED.namespace, EXCLUDED.name, EXCLUDED.dataset_id)`;

/**
 * Records jobs, job versions and runs from the events the intake takes (issue 27 §3, ADR 0053), in the
 * intake's transaction: a RunEvent updates its job and its run (state, times, facets, datasets, the
 * event as sent); a JobEvent updates its job and its version; a DatasetEvent touches neither. The job
 * row is locked first, so that one job's events are recorded one at a time (version numbers). A
 * RunEvent costs two statements (job and run, the rest), one more when it ends the run (its version),
 * and the job graph's edges are changed, in one statement, only when the job's current version changes
 * (ADR 0056).
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
    const refs = refsOf(sent, result);
    if (received.kind === 'job') {
      const job = await this.job(received.job, sent.job.facets ?? {}, eventTime, m);
      await this.makeCurrent(job, await this.version(job, refs.input, refs.output, null, m), m);
      return;
    }
    const { job, run, existed } = await this.jobAndRun(received, sent, eventTime, m);
    const datasets = await this.runEvent(received, sent, run, existed, refs, eventTime, m);
    if (!datasets) return;
    // A run that ended ran one version: its inputs and outputs so far (late events may add to them).
    const versionId = await this.version(
      job,
      datasets.filter((r) => r.role === 'input').map(storedRef),
      datasets.filter((r) => r.role === 'output').map(storedRef),
      run.id,
      m,
    );
    await this.makeCurrent(job, versionId, m);
  }

  /**
   * The job's current version (that of the latest run to end or JobEvent recorded), and its inputs and
   * outputs as the job graph's edges when it changed.
   */
  private async makeCurrent(job: JobRow, versionId: string, m: EntityManager): Promise<void> {
    if (job.current_version_id === versionId) return;
    await m.query(MAKE_CURRENT, [job.id, versionId]);
  }

  /** The job, created on its first event, its facets merged (locked for the rest of the transaction). */
  private async job(
    ref: { namespace: string; name: string },
    facets: Facets,
    eventTime: Date,
    m: EntityManager,
  ): Promise<JobRow> {
    // Just inserted or there before: always one row.
    const [job]: JobRow[] = await m.query(UPSERT_JOB, [
      ref.namespace,
      ref.name,
      mergeFacets({}, facets, true),
      eventTime,
      facets,
    ]);
    return job;
  }

  /**
   * The job's version with these inputs, outputs, source code location and SQL (content-addressed), or a
   * new one numbered after the last, introduced by `runId` (which it is set to run).
   */
  private async version(
    job: JobRow,
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
    const [version]: { id: string }[] = await m.query(VERSION, [
      job.id,
      hash,
      JSON.stringify(sorted(inputs)),
      JSON.stringify(sorted(outputs)),
      location,
      sql,
      runId,
      runId,
    ]);
    return version.id;
  }

  /**
   * The job (its facets merged, locked) and the run, inserted as this event makes it when new, else
   * locked and read: its state machine, times, nominal time, parent and facets after this event, and
   * whether it existed before.
   */
  private async jobAndRun(
    received: ReceivedEvent,
    event: ParsedOpenLineageRunEvent,
    eventTime: Date,
    m: EntityManager,
  ): Promise<{ job: JobRow; run: RunAfter & { id: string }; existed: boolean }> {
    const eventType = received.eventType ?? 'OTHER';
    const sentFacets = event.run.facets ?? {};
    const jobFacets = event.job.facets ?? {};
    const fresh = after(
      { state: 'NEW', state_time: eventTime, started_at: null, ended_at: null, facets: {} },
      eventType,
      sentFacets,
      eventTime,
      true,
    );
    // Always one row: the job and the run, each just inserted or there before.
    const [row]: (LineageRunEntity & {
      inserted: boolean;
      job_ref: string;
      job_current_version_id: string | null;
      job_facets: Facets;
    })[] = await m.query(UPSERT_JOB_AND_RUN, [
      event.job.namespace,
      event.job.name,
      mergeFacets({}, jobFacets, true),
      eventTime,
      jobFacets,
      received.runId,
      fresh.state,
      fresh.state_time,
      fresh.started_at,
      fresh.ended_at,
      fresh.nominal_start_time,
      fresh.nominal_end_time,
      fresh.parent_run_id,
      fresh.parent_job_namespace,
      fresh.parent_job_name,
      fresh.parentUuid,
      fresh.facets,
    ]);
    const job: JobRow = {
      id: row.job_ref,
      current_version_id: row.job_current_version_id,
      facets: row.job_facets,
    };
    if (row.inserted) return { job, run: { ...fresh, id: row.id }, existed: false };
    const next = after(
      {
        state: row.state,
        state_time: new Date(row.state_time),
        started_at: row.started_at && new Date(row.started_at),
        ended_at: row.ended_at && new Date(row.ended_at),
        facets: row.facets,
      },
      eventType,
      sentFacets,
      eventTime,
      eventTime >= new Date(row.last_event_time),
    );
    return { job, run: { ...next, id: row.id }, existed: true };
  }

  /**
   * The event on its run (`RUN_EVENT`): the run's new state when it existed, its children, the event as
   * sent and its datasets; the run's datasets after it when it has ended (null otherwise).
   */
  private async runEvent(
    received: ReceivedEvent,
    event: ParsedOpenLineageRunEvent,
    run: RunAfter & { id: string },
    existed: boolean,
    refs: Record<Role, StoredDatasetRef[]>,
    eventTime: Date,
    m: EntityManager,
  ): Promise<RunDataset[] | null> {
    const ended = isTerminal(run.state);
    const rows: RunDatasetRow[] = await m.query(RUN_EVENT, [
      run.id,
      run.state,
      run.state_time,
      run.started_at,
      run.ended_at,
      run.nominal_start_time,
      run.nominal_end_time,
      run.parent_run_id,
      run.parent_job_namespace,
      run.parent_job_name,
      run.parentUuid,
      run.facets,
      eventTime,
      received.runId,
      existed,
      ended,
      received.key,
      received.eventType,
      event,
      JSON.stringify(datasetRows(event, refs)),
    ]);
    if (!ended) return null;
    // Those this event wrote (as they are after it) over those stored before.
    const byName = new Map<string, RunDataset>();
    for (const r of [...rows.filter((x) => !x.written), ...rows.filter((x) => x.written)]) {
      byName.set(`${r.role}\u0000${r.namespace}\u0000${r.name}`, r);
    }
    return [...byName.values()];
  }
}

/** A run's state, times, nominal time, parent and facets after one more event. */
interface RunAfter extends RunClock {
  facets: Facets;
  nominal_start_time: Date | null;
  nominal_end_time: Date | null;
  parent_run_id: string | null;
  parent_job_namespace: string | null;
  parent_job_name: string | null;
  /** `parent_run_id` when it is canonical UUID text (how run ids are stored), else null. */
  parentUuid: string | null;
}

/** The run after an event: the state machine on its clock, its facets merged, what they say. */
function after(
  run: RunClock & { facets: Facets },
  eventType: OpenLineageEventType,
  sentFacets: Facets,
  eventTime: Date,
  sentIsNewer: boolean,
): RunAfter {
  const clock = nextClock(run, eventType, eventTime);
  const facets = mergeFacets(run.facets, sentFacets, sentIsNewer);
  const nominal = liveFacet(facets['nominalTime']);
  const parent = liveFacet(facets['parent']);
  const parentRun = parent?.['run'] as { runId?: unknown } | undefined;
  const parentJob = parent?.['job'] as { namespace?: unknown; name?: unknown } | undefined;
  const parentRunId = typeof parentRun?.runId === 'string' ? parentRun.runId.toLowerCase() : null;
  return {
    ...clock,
    facets,
    nominal_start_time: timeOf(nominal?.['nominalStartTime']),
    nominal_end_time: timeOf(nominal?.['nominalEndTime']),
    parent_run_id: parentRunId,
    parent_job_namespace: typeof parentJob?.namespace === 'string' ? parentJob.namespace : null,
    parent_job_name: typeof parentJob?.name === 'string' ? parentJob.name : null,
    parentUuid: parentRunId !== null && CANONICAL_UUID.test(parentRunId) ? parentRunId : null,
  };
}

/**
 * The event's inputs and outputs for the run, one row per role and name, their input/output facets
 * merged in the event's order (`_deleted` markers kept: the statement's merge removes what they name).
 */
function datasetRows(
  event: ParsedOpenLineageRunEvent,
  refs: Record<Role, StoredDatasetRef[]>,
): (StoredDatasetRef & { role: Role; facets: Facets })[] {
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
      rows.set(k, { ...ref, role, facets: { ...rows.get(k)?.facets, ...facets } });
    }
  }
  return [...rows.values()];
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
