import type { SchemaChange } from '@aide/schemas';
import type { UnknownDatasetQuery } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { registerConstraintCodes } from '../../../common/errors/db-error.js';
import type { ReceivedEvent } from '../openlineage.repository.js';
import {
  type DriftClass,
  type ObservedField,
  type RegisteredColumn,
  TYPE_COMPARISON,
} from './observed-schema-drift.js';

// Written by the intake in its own statements (ON CONFLICT for the unique keys): a violation is a race
// or a row deleted underneath, answered with the code of what went missing.
registerConstraintCodes({
  fk_lineage_event_payloads_event: 'NOT_FOUND',
  fk_lineage_unknown_datasets_dataset: 'DATASET_NOT_FOUND',
  fk_lineage_unknown_dataset_jobs_dataset: 'UNKNOWN_DATASET_NOT_FOUND',
  fk_lineage_unknown_dataset_events_dataset: 'UNKNOWN_DATASET_NOT_FOUND',
  fk_lineage_unknown_dataset_events_event: 'NOT_FOUND',
  fk_lineage_observed_schemas_dataset: 'DATASET_NOT_FOUND',
  fk_lineage_observed_schemas_event: 'NOT_FOUND',
  fk_lineage_observed_schemas_schema: 'DATASET_SCHEMA_NOT_FOUND',
  uq_lineage_unknown_datasets_name: 'VERSION_CONFLICT',
  uq_lineage_observed_schemas_event: 'VERSION_CONFLICT',
});

/** An unknown dataset of one event, in one role. */
export interface SeenUnknown {
  role: 'input' | 'output';
  namespace: string;
  namespaceKey: string;
  name: string;
  /** Field name → type as sent (null: no type); empty without a schema facet. */
  fields: Record<string, string | null>;
}

export interface UnknownDatasetRow {
  id: string;
  namespace: string;
  namespace_key: string;
  name: string;
  fields: Record<string, string | null>;
  first_seen: Date;
  last_seen: Date;
  event_count: number;
  registered_dataset_id: string | null;
  registered_at: Date | null;
}

export interface UnknownJobRow {
  unknown_dataset_id: string;
  job_namespace: string;
  job_name: string;
  role: 'input' | 'output';
  event_count: number;
  first_seen: Date;
  last_seen: Date;
}

/** A matched dataset's current version as the drift comparison reads it. */
export interface CurrentVersion {
  dataset_id: string;
  schema_id: string | null;
  version_num: number | null;
  flavor_code: string | null;
  columns: RegisteredColumn[];
}

export interface ObservedSchemaInsert {
  dataset_id: string;
  fields: ObservedField[];
  compared_schema_id: string | null;
  drift: DriftClass;
  changes: unknown[];
}

export interface ObservedSchemaRow {
  id: string;
  dataset_id: string;
  event_key: string;
  run_id: string | null;
  job_namespace: string | null;
  job_name: string | null;
  observed_at: Date;
  fields: ObservedField[];
  compared_version_num: number | null;
  drift: DriftClass;
  type_comparison: string;
  /** As the classifier wrote them (jsonb, written by this repository only). */
  changes: SchemaChange[];
}

/**
 * The tables of what the OpenLineage intake observes (ADR 0054), each write one statement whatever the
 * size of the event. Recording is idempotent per event: an event replayed is counted once.
 */
@Injectable()
export class LineageObservationsRepository {
  /**
   * The event's unknown datasets, in one statement (ADR 0056): the event's body kept to replay it (the
   * first body of a key is the one received); each dataset upserted (fields merged, first/last seen
   * widened) and — when this event was not counted for it before — its event count and its job's row
   * bumped.
   */
  async recordUnknown(
    event: ReceivedEvent,
    payload: unknown,
    seen: readonly SeenUnknown[],
    m: EntityManager,
  ): Promise<void> {
    // One row per (namespace, name) in the upsert (a dataset both read and written is one), in key
    // order (concurrent events lock the rows they share in the same order).
    const merged = new Map<string, SeenUnknown>();
    for (const s of seen) {
      const k = `${s.namespaceKey}\u0000${s.name}`;
      const before = merged.get(k);
      merged.set(k, before ? { ...before, fields: { ...before.fields, ...s.fields } } : s);
    }
    const rows = [...merged.values()].sort((a, b) =>
      `${a.namespaceKey}\u0000${a.name}` < `${b.namespaceKey}\u0000${b.name}` ? -1 : 1,
    );
    await m.query(
      `WITH payload AS (
         INSERT INTO lineage_event_payloads (event_key, payload) VALUES ($6, $7) ON CONFLICT (event_key) DO NOTHING),
       ids AS (
         INSERT INTO lineage_unknown_datasets AS u (namespace, namespace_key, name, fields, first_seen, last_seen,
                                                    event_count)
         SELECT ns, k, n, f::jsonb, $5, $5, 1 FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS x(ns, k, n, f)
         ON CONFLICT (namespace_key, name) DO UPDATE
           SET fields = u.fields || excluded.fields,
               first_seen = least(u.first_seen, excluded.first_seen),
               last_seen = greatest(u.last_seen, excluded.last_seen),
               -- Counted once per event: a replay of an event counted before leaves the count.
               event_count = u.event_count + CASE WHEN EXISTS (
                 SELECT 1 FROM lineage_unknown_dataset_events e WHERE e.unknown_dataset_id = u.id AND e.event_key = $6)
                 THEN 0 ELSE 1 END
         RETURNING id, namespace_key, name),
       counted AS (
         INSERT INTO lineage_unknown_dataset_events (unknown_dataset_id, event_key)
         SELECT id, $6 FROM ids ON CONFLICT DO NOTHING RETURNING unknown_dataset_id)
       INSERT INTO lineage_unknown_dataset_jobs
         (unknown_dataset_id, job_namespace, job_name, role, event_count, first_seen, last_seen)
       SELECT DISTINCT ids.id, $8, $9, j.role, 1, $5::timestamptz, $5::timestamptz
       FROM counted c JOIN ids ON ids.id = c.unknown_dataset_id
       JOIN unnest($10::text[], $11::text[], $12::text[]) AS j(k, n, role) ON j.k = ids.namespace_key AND j.n = ids.name
       WHERE $8::text IS NOT NULL
       ON CONFLICT (unknown_dataset_id, job_namespace, job_name, role) DO UPDATE
         SET event_count = lineage_unknown_dataset_jobs.event_count + 1,
             first_seen = least(lineage_unknown_dataset_jobs.first_seen, excluded.first_seen),
             last_seen = greatest(lineage_unknown_dataset_jobs.last_seen, excluded.last_seen)`,
      [
        rows.map((r) => r.namespace),
        rows.map((r) => r.namespaceKey),
        rows.map((r) => r.name),
        rows.map((r) => JSON.stringify(r.fields)),
        event.eventTime,
        event.key,
        JSON.stringify(payload),
        event.job?.namespace ?? null,
        event.job?.name ?? null,
        seen.map((s) => s.namespaceKey),
        seen.map((s) => s.name),
        seen.map((s) => s.role),
      ],
    );
  }

  /** Unknown datasets an event now matches: registered (by whatever means) as that dataset. */
  async markRegistered(
    matched: readonly { namespaceKey: string; name: string; datasetId: string }[],
    m: EntityManager,
  ): Promise<void> {
    if (matched.length === 0) return;
    await m.query(
      `UPDATE lineage_unknown_datasets u SET registered_dataset_id = x.d, registered_at = now()
       FROM unnest($1::text[], $2::text[], $3::uuid[]) AS x(k, n, d)
       WHERE u.namespace_key = x.k AND u.name = x.n AND u.registered_dataset_id IS NULL`,
      [matched.map((x) => x.namespaceKey), matched.map((x) => x.name), matched.map((x) => x.datasetId)],
    );
  }

  /**
   * Each dataset's current version (highest with bindings) and its root columns, and its flavor. With
   * `lock`, only active datasets, held FOR SHARE for the rest of the transaction (the intake pins links
   * to these versions: ADR 0056).
   */
  currentVersions(datasetIds: readonly string[], m: EntityManager, lock = false): Promise<CurrentVersion[]> {
    if (datasetIds.length === 0) return Promise.resolve([]);
    return m.query(
      `SELECT d.id AS dataset_id, cur.id AS schema_id, cur.version_num, fl.code AS flavor_code,
              coalesce((SELECT json_agg(json_build_object(
                          'name', f.name, 'nullable', b.is_nullable, 'default', b.default_expression,
                          'comment', b.comment, 'identity', b.identity, 'generated', b.generated_expression,
                          'collation', b.collation_name, 'native_type', b.native_type, 'code', dt.code,
                          'params', ti.type_params) ORDER BY b.position)
                        FROM field_bindings b JOIN fields f ON f.id = b.field_id AND f.parent_id IS NULL
                        LEFT JOIN type_instances ti ON ti.id = b.type_instance_id
                        LEFT JOIN data_types dt ON dt.id = ti.data_type_id
                        WHERE b.dataset_schema_id = cur.id), '[]'::json) AS columns
       FROM datasets d
       JOIN systems s ON s.id = d.system_id
       LEFT JOIN system_flavors fl ON fl.id = coalesce(d.flavor_id, s.flavor_id)
       LEFT JOIN LATERAL (
         SELECT v.id, v.version_num FROM dataset_schemas v
         WHERE v.dataset_id = d.id AND EXISTS (SELECT 1 FROM field_bindings b WHERE b.dataset_schema_id = v.id)
         ORDER BY v.version_num DESC LIMIT 1) cur ON true
       WHERE d.id = ANY($1::uuid[])${lock ? ' AND d.deleted_at IS NULL FOR SHARE OF d' : ''}`,
      [datasetIds],
    );
  }

  /**
   * The schemas an event saw, but those equal to its run's latest observation of the dataset (the same
   * fields compared with the same version): a run's START and COMPLETE usually carry one schema. A replay
   * of the same event keeps the first observation.
   */
  async insertObserved(
    event: ReceivedEvent,
    rows: readonly ObservedSchemaInsert[],
    m: EntityManager,
  ): Promise<void> {
    if (rows.length === 0) return;
    await m.query(
      `INSERT INTO lineage_observed_schemas (dataset_id, event_key, run_id, job_namespace, job_name, observed_at,
                                             fields, compared_schema_id, drift, type_comparison, changes)
       SELECT d, $6, $7, $8, $9, $10, f::jsonb, s, dr, $11, c::jsonb
       FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::text[], $5::text[]) AS o(d, f, s, dr, c)
       WHERE $7::uuid IS NULL OR NOT EXISTS (
         SELECT 1 FROM (
           SELECT p.fields, p.compared_schema_id FROM lineage_observed_schemas p
           WHERE p.run_id = $7 AND p.dataset_id = o.d
           ORDER BY p.observed_at DESC, p.id DESC LIMIT 1) latest
         WHERE latest.fields = o.f::jsonb AND latest.compared_schema_id IS NOT DISTINCT FROM o.s)
       ON CONFLICT (dataset_id, event_key) DO NOTHING`,
      [
        rows.map((r) => r.dataset_id),
        rows.map((r) => JSON.stringify(r.fields)),
        rows.map((r) => r.compared_schema_id),
        rows.map((r) => r.drift),
        rows.map((r) => JSON.stringify(r.changes)),
        event.key,
        event.runId,
        event.job?.namespace ?? null,
        event.job?.name ?? null,
        event.eventTime,
        TYPE_COMPARISON,
      ],
    );
  }

  async unknownPage(
    q: UnknownDatasetQuery,
    namespaceKey: string | undefined,
    m: EntityManager,
  ): Promise<{ rows: UnknownDatasetRow[]; total: number }> {
    const where = `($1::text IS NULL OR namespace_key = $1)
       AND ($2::text IS NULL OR strpos(lower(name), lower($2)) > 0)
       AND ($3::boolean IS NULL OR (registered_dataset_id IS NOT NULL) = $3)`;
    const params = [namespaceKey ?? null, q.name ?? null, q.registered ?? null];
    const counted: { total: number }[] = await m.query(
      `SELECT count(*)::int AS total FROM lineage_unknown_datasets WHERE ${where}`,
      params,
    );
    const total = counted[0]?.total ?? 0;
    const rows: UnknownDatasetRow[] = await m.query(
      `SELECT * FROM lineage_unknown_datasets WHERE ${where}
       ORDER BY last_seen DESC, id LIMIT $4 OFFSET $5`,
      [...params, q.size, (q.page - 1) * q.size],
    );
    return { rows, total };
  }

  async unknownById(id: string, m: EntityManager, lock = false): Promise<UnknownDatasetRow | null> {
    const rows: UnknownDatasetRow[] = await m.query(
      `SELECT * FROM lineage_unknown_datasets WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
      [id],
    );
    return rows[0] ?? null;
  }

  jobsOf(ids: readonly string[], m: EntityManager): Promise<UnknownJobRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return m.query(
      `SELECT * FROM lineage_unknown_dataset_jobs WHERE unknown_dataset_id = ANY($1::uuid[])
       ORDER BY last_seen DESC, job_namespace, job_name, role`,
      [ids],
    );
  }

  async setRegistered(id: string, datasetId: string, m: EntityManager): Promise<void> {
    await m.query(
      `UPDATE lineage_unknown_datasets SET registered_dataset_id = $2, registered_at = now() WHERE id = $1`,
      [id, datasetId],
    );
  }

  /** The stored bodies of the events that named an unknown dataset, oldest first. */
  payloadsOfUnknown(id: string, m: EntityManager): Promise<{ event_key: string; payload: unknown }[]> {
    return m.query(
      `SELECT p.event_key, p.payload FROM lineage_unknown_dataset_events e
       JOIN lineage_event_payloads p ON p.event_key = e.event_key
       JOIN openlineage_events o ON o.event_key = e.event_key
       WHERE e.unknown_dataset_id = $1 ORDER BY o.event_time, o.event_key`,
      [id],
    );
  }

  /** The stored bodies of a run's events, oldest first. */
  payloadsOfRun(runId: string, m: EntityManager): Promise<{ event_key: string; payload: unknown }[]> {
    return m.query(
      `SELECT p.event_key, p.payload FROM openlineage_events o
       JOIN lineage_event_payloads p ON p.event_key = o.event_key
       WHERE o.run_id = $1 ORDER BY o.event_time, o.event_key`,
      [runId],
    );
  }

  /** The latest observation of each job (and of DatasetEvents, as one) for a dataset. */
  observedOf(datasetId: string, m: EntityManager): Promise<ObservedSchemaRow[]> {
    return m.query(
      `SELECT DISTINCT ON (o.job_namespace, o.job_name) o.*, v.version_num AS compared_version_num
       FROM lineage_observed_schemas o LEFT JOIN dataset_schemas v ON v.id = o.compared_schema_id
       WHERE o.dataset_id = $1
       ORDER BY o.job_namespace, o.job_name, o.observed_at DESC, o.id`,
      [datasetId],
    );
  }

  async datasetExists(id: string, m: EntityManager): Promise<boolean> {
    const rows: unknown[] = await m.query('SELECT 1 FROM datasets WHERE id = $1 AND deleted_at IS NULL', [
      id,
    ]);
    return rows.length > 0;
  }

  /** Systems (active) with their kind code, for registration. */
  systemKinds(ids: readonly string[], m: EntityManager): Promise<{ id: string; kind_code: string }[]> {
    return m.query(
      `SELECT s.id, k.code AS kind_code FROM systems s JOIN system_flavors f ON f.id = s.flavor_id
       JOIN system_kinds k ON k.id = f.kind_id WHERE s.id = ANY($1::uuid[]) AND s.deleted_at IS NULL`,
      [ids],
    );
  }
}
