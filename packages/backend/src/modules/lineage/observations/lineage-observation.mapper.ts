import type { ObservedSchema, UnknownDataset } from '@aide/schemas';
import type {
  ObservedSchemaRow,
  UnknownDatasetRow,
  UnknownJobRow,
} from './lineage-observations.repository.js';

const iso = (d: Date | string) => new Date(d).toISOString();

export function toUnknownDataset(row: UnknownDatasetRow, jobs: readonly UnknownJobRow[]): UnknownDataset {
  return {
    id: row.id,
    namespace: row.namespace,
    name: row.name,
    fields: Object.entries(row.fields)
      .map(([name, type]) => ({ name, type }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    first_seen: iso(row.first_seen),
    last_seen: iso(row.last_seen),
    event_count: row.event_count,
    jobs: jobs
      .filter((j) => j.unknown_dataset_id === row.id)
      .map((j) => ({
        namespace: j.job_namespace,
        name: j.job_name,
        role: j.role,
        event_count: j.event_count,
        first_seen: iso(j.first_seen),
        last_seen: iso(j.last_seen),
      })),
    registered_dataset_id: row.registered_dataset_id,
    registered_at: row.registered_at === null ? null : iso(row.registered_at),
  };
}

export function toObservedSchema(row: ObservedSchemaRow): ObservedSchema {
  return {
    id: row.id,
    dataset_id: row.dataset_id,
    event_key: row.event_key,
    run_id: row.run_id,
    job: row.job_name === null ? null : { namespace: row.job_namespace ?? '', name: row.job_name },
    observed_at: iso(row.observed_at),
    fields: row.fields,
    compared_version_num: row.compared_version_num,
    drift: row.drift,
    type_comparison: row.type_comparison === 'types' ? 'types' : 'names_only',
    changes: row.changes,
  };
}
