import type { DatasetRun, LineageJob, LineageJobVersion, LineageRun, LineageRunEvent } from '@aide/schemas';
import type { LineageJobVersionEntity, StoredDatasetRef } from './lineage-job-version.entity.js';
import type { LineageJobEntity } from './lineage-job.entity.js';
import type { LineageRunDatasetEntity } from './lineage-run-dataset.entity.js';
import type { LineageRunEventEntity } from './lineage-run-event.entity.js';
import type { LineageRunEntity } from './lineage-run.entity.js';

type Facets = Record<string, unknown>;

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const text = (v: unknown) => (typeof v === 'string' ? v : null);
const isFacets = (v: unknown): v is Facets => typeof v === 'object' && v !== null && !Array.isArray(v);
const record = (v: unknown): Facets | null => (isFacets(v) ? v : null);

/** Input/output facets without `_deleted` markers (a first event's is stored as sent: nothing to remove yet). */
const live = (facets: Facets): Facets =>
  Object.fromEntries(Object.entries(facets).filter(([, f]) => record(f)?.['_deleted'] !== true));

const ref = (r: StoredDatasetRef) => ({ namespace: r.namespace, name: r.name, dataset_id: r.dataset_id });

export function toRunSummary(r: LineageRunEntity) {
  return {
    id: r.id,
    run_id: r.run_id,
    state: r.state,
    started_at: iso(r.started_at),
    ended_at: iso(r.ended_at),
  };
}

/** A job with the facets integrations send read out (jobType, sourceCodeLocation, sql, documentation, ownership). */
export function toLineageJob(
  j: LineageJobEntity,
  version: LineageJobVersionEntity | null,
  latestRun: LineageRunEntity | null,
): LineageJob {
  const type = record(j.facets['jobType']);
  return {
    id: j.id,
    namespace: j.namespace,
    name: j.name,
    type: type
      ? {
          processing_type: text(type['processingType']),
          integration: text(type['integration']),
          job_type: text(type['jobType']),
        }
      : null,
    source_code_location: record(j.facets['sourceCodeLocation']),
    sql: text(record(j.facets['sql'])?.['query']),
    description: text(record(j.facets['documentation'])?.['description']),
    ownership: record(j.facets['ownership']),
    facets: j.facets,
    current_version: version?.version ?? null,
    inputs: (version?.inputs ?? []).map(ref),
    outputs: (version?.outputs ?? []).map(ref),
    latest_run: latestRun ? toRunSummary(latestRun) : null,
    created_at: j.created_at.toISOString(),
    updated_at: j.updated_at.toISOString(),
  };
}

export function toLineageJobVersion(
  v: LineageJobVersionEntity,
  run: LineageRunEntity | null,
): LineageJobVersion {
  return {
    id: v.id,
    job_id: v.job_id,
    version: v.version,
    inputs: v.inputs.map(ref),
    outputs: v.outputs.map(ref),
    source_code_location: v.source_code_location,
    sql: v.sql,
    introduced_by_run: run ? toRunSummary(run) : null,
    created_at: v.created_at.toISOString(),
  };
}

export function toLineageRun(
  r: LineageRunEntity,
  job: LineageJobEntity,
  version: LineageJobVersionEntity | null,
  datasets: readonly LineageRunDatasetEntity[],
): LineageRun {
  const error = record(r.facets['errorMessage']);
  const dataset = (d: LineageRunDatasetEntity) => ({ ...ref(d), facets: live(d.facets) });
  return {
    id: r.id,
    run_id: r.run_id,
    job: { id: job.id, namespace: job.namespace, name: job.name },
    job_version: version?.version ?? null,
    state: r.state,
    started_at: iso(r.started_at),
    ended_at: iso(r.ended_at),
    duration_ms:
      r.started_at && r.ended_at ? Math.max(0, r.ended_at.getTime() - r.started_at.getTime()) : null,
    nominal_start_time: iso(r.nominal_start_time),
    nominal_end_time: iso(r.nominal_end_time),
    parent: r.parent_run_id
      ? {
          run_id: r.parent_run_id,
          job_namespace: r.parent_job_namespace,
          job_name: r.parent_job_name,
          id: r.parent_id,
        }
      : null,
    error: error
      ? {
          message: text(error['message']),
          programming_language: text(error['programmingLanguage']),
          stack_trace: text(error['stackTrace']),
        }
      : null,
    facets: r.facets,
    inputs: datasets.filter((d) => d.role === 'input').map(dataset),
    outputs: datasets.filter((d) => d.role === 'output').map(dataset),
    first_event_time: r.first_event_time.toISOString(),
    last_event_time: r.last_event_time.toISOString(),
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

export function toLineageRunEvent(e: LineageRunEventEntity): LineageRunEvent {
  return {
    event_type: e.event_type,
    event_time: e.event_time.toISOString(),
    received_at: e.received_at.toISOString(),
    event: e.event,
  };
}

export function toDatasetRun(
  d: LineageRunDatasetEntity,
  run: LineageRunEntity,
  job: LineageJobEntity,
): DatasetRun {
  return {
    role: d.role,
    run: toRunSummary(run),
    job: { id: job.id, namespace: job.namespace, name: job.name },
    event_time: d.event_time.toISOString(),
    facets: live(d.facets),
  };
}
