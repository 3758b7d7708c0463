import type { OpenLineageEventKind, OpenLineageEventType } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { registerConstraintCodes } from '../../common/errors/db-error.js';
import type { LinkedField } from '../field-links/field-link-batch.js';
import type { NameLookup, SystemNaming } from './openlineage-naming.js';

/** An event as recorded: its key (ADR 0051) and what it names. */
export interface ReceivedEvent {
  key: string;
  kind: OpenLineageEventKind;
  runId: string | null;
  eventType: OpenLineageEventType | null;
  eventTime: string;
  job: { namespace: string; name: string } | null;
  dataset: { namespace: string; name: string } | null;
  producer: string;
}

/** A root field found by name. */
export interface NamedField {
  id: string;
  dataset_id: string;
  name: string;
  origin: string;
}

/** A root field found by name, and whether it is bound in a version (null: none asked). */
export interface BoundField extends NamedField {
  schema_id: string | null;
  bound: boolean;
}

registerConstraintCodes({ fk_openlineage_events_user: 'USER_NOT_FOUND' });

/** A stored location as `normalizeNamespace` writes URIs: s3a/s3n read as s3, no trailing slash. */
const LOCATION = (column: string) => `regexp_replace(rtrim(${column}, '/'), '^s3[an]://', 's3://')`;

/** Active systems that declare an OpenLineage namespace, or whose code is one of the array `codes`. */
const ACTIVE_NAMESPACED_SYSTEMS = (codes: string) =>
  `deleted_at IS NULL
   AND (extra ?| array['openlineage_namespace', 'openlineage_namespaces'] OR lower(code) = ANY(${codes}::text[]))`;

/** One name to look up in one system. */
export interface DatasetRequest {
  key: number;
  systemId: string;
  lookup: NameLookup;
}

/** A dataset a request found, and how: `object_name` (exact) or a kind's attributes. */
export interface DatasetHit {
  key: number;
  dataset_id: string;
  exact: boolean;
}

/**
 * The reads and writes of the OpenLineage intake (ADR 0022), each one statement whatever the size of the
 * event: the event row (the idempotency claim, by event key), systems by namespace, datasets by name, the
 * fields of its column lineage with their bindings and field links. Current versions are read with the
 * observations (`LineageObservationsRecorder.currentVersions`); links and field links are written by their
 * own modules (`DatasetLinkBatch`, `FieldLinkBatch`, with ON CONFLICT so that a concurrent writer is not an
 * error; ADR 0026).
 */
@Injectable()
export class OpenLineageRepository {
  /**
   * What the intake reads before it applies an event, in one round trip: the answer stored for its key
   * (null: never received, or a row without one, which `record` takes over), and the active systems
   * that declare an OpenLineage namespace or whose code is one of `codes` (see `systems`).
   */
  async storedAndSystems(
    key: string,
    codes: readonly string[],
    m: EntityManager,
  ): Promise<{ stored: Record<string, unknown> | null; systems: SystemNaming[] }> {
    const [row]: { stored: Record<string, unknown> | null; systems: SystemNaming[] }[] = await m.query(
      `SELECT (SELECT result FROM openlineage_events WHERE event_key = $1) AS stored,
              coalesce((SELECT json_agg(json_build_object('id', id, 'code', code, 'extra', extra)) FROM systems
                        WHERE ${ACTIVE_NAMESPACED_SYSTEMS('$2')}), '[]'::json) AS systems`,
      [key, codes],
    );
    return row;
  }

  /**
   * Records the event with its answer, once it is applied: false when the key was taken meanwhile by a
   * concurrent transaction that has committed (its answer stands; the caller rolls this one back). A row
   * without an answer (never left by the intake) takes this one.
   */
  async record(event: ReceivedEvent, actorId: string, result: unknown, m: EntityManager): Promise<boolean> {
    const rows: unknown[] = await m.query(
      `INSERT INTO openlineage_events (event_key, kind, run_id, event_type, event_time, job_namespace, job_name,
                                       dataset_namespace, dataset_name, producer, received_by, result)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
       ON CONFLICT (event_key) DO UPDATE SET result = excluded.result WHERE openlineage_events.result IS NULL
       RETURNING event_key`,
      [
        event.key,
        event.kind,
        event.runId,
        event.eventType,
        event.eventTime,
        event.job?.namespace ?? null,
        event.job?.name ?? null,
        event.dataset?.namespace ?? null,
        event.dataset?.name ?? null,
        event.producer,
        actorId,
        JSON.stringify(result),
      ],
    );
    return rows.length > 0;
  }

  async storedResult(key: string, m: EntityManager): Promise<Record<string, unknown> | null> {
    const rows: { result: Record<string, unknown> | null }[] = await m.query(
      'SELECT result FROM openlineage_events WHERE event_key = $1',
      [key],
    );
    return rows[0]?.result ?? null;
  }

  async saveResult(key: string, result: unknown, m: EntityManager): Promise<void> {
    await m.query('UPDATE openlineage_events SET result = $2 WHERE event_key = $1', [
      key,
      JSON.stringify(result),
    ]);
  }

  /** Active systems that declare an OpenLineage namespace, or whose code is one of `codes`. */
  systems(codes: readonly string[], m: EntityManager): Promise<SystemNaming[]> {
    return m.query(`SELECT id, code, extra FROM systems WHERE ${ACTIVE_NAMESPACED_SYSTEMS('$1')}`, [codes]);
  }

  /**
   * The active datasets each request names in its system: by `object_name` (the name or a shorter dotted
   * suffix of it), or by a kind's attributes — rdbms `[catalog.]schema.table`, hive `db.table` or its
   * location, kafka topic, storage and sftp path (identifiers compared case-insensitively).
   */
  matchDatasets(requests: readonly DatasetRequest[], m: EntityManager): Promise<DatasetHit[]> {
    if (requests.length === 0) return Promise.resolve([]);
    const col = <T>(f: (r: DatasetRequest) => T) => requests.map(f);
    return m.query(
      `WITH r AS (
         SELECT * FROM unnest($1::int[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
           AS r(key, system_id, name, uri, object_names, last, second, third)
       )
       SELECT key, dataset_id, bool_or(exact) AS exact
       FROM (
         SELECT r.key, d.id AS dataset_id, d.object_name = r.name AS exact
         -- One probe of uq_datasets_system_object_active per candidate name: \`= ANY(array)\` joined on the
         -- system alone compared every request with every dataset of the system (pnpm bench lineage).
         FROM r CROSS JOIN LATERAL unnest(string_to_array(r.object_names, chr(31))) AS o(object_name)
         JOIN datasets d ON d.system_id = r.system_id AND d.object_name = o.object_name AND d.deleted_at IS NULL
         UNION ALL
         SELECT r.key, d.id, false FROM r
         JOIN dataset_rdbms x ON r.second IS NOT NULL AND lower(x.table_name) = lower(r.last)
           AND lower(x.schema_name) = lower(r.second)
           AND (r.third IS NULL OR x.catalog_name IS NULL OR lower(x.catalog_name) = lower(r.third))
         JOIN datasets d ON d.id = x.id AND d.system_id = r.system_id AND d.deleted_at IS NULL
         UNION ALL
         SELECT r.key, d.id, false FROM r
         JOIN dataset_hive x ON (r.second IS NOT NULL AND lower(x.table_name) = lower(r.last)
                                 AND lower(x.db_name) = lower(r.second))
                             OR ${LOCATION('x.location')} = rtrim(r.uri, '/')
         JOIN datasets d ON d.id = x.id AND d.system_id = r.system_id AND d.deleted_at IS NULL
         UNION ALL
         SELECT r.key, d.id, false FROM r
         JOIN dataset_kafka x ON x.topic = r.name
         JOIN datasets d ON d.id = x.id AND d.system_id = r.system_id AND d.deleted_at IS NULL
         UNION ALL
         SELECT r.key, d.id, false FROM r
         JOIN dataset_storage x ON trim(both '/' from x.path) = trim(both '/' from r.name)
                                OR ${LOCATION('x.path')} = rtrim(r.uri, '/')
         JOIN datasets d ON d.id = x.id AND d.system_id = r.system_id AND d.deleted_at IS NULL
         UNION ALL
         SELECT r.key, d.id, false FROM r
         JOIN dataset_sftp x ON trim(both '/' from x.path) = trim(both '/' from r.name)
         JOIN datasets d ON d.id = x.id AND d.system_id = r.system_id AND d.deleted_at IS NULL
       ) hits
       GROUP BY key, dataset_id
       ORDER BY key, dataset_id`,
      [
        col((r) => r.key),
        col((r) => r.systemId),
        col((r) => r.lookup.name),
        col((r) => r.lookup.uri),
        col((r) => r.lookup.objectNames.join('\u001f')),
        col((r) => r.lookup.last),
        col((r) => r.lookup.second),
        col((r) => r.lookup.third),
      ],
    );
  }

  /**
   * What the column lineage of an event needs, in one statement: the root fields each side names (by
   * name, case-insensitively; not locked), each with whether it is bound in the version that side's link
   * pins (`schema_id`, null when unpinned), and the field links already inside the event's dataset links
   * (read here rather than through `FieldLinkBatch.ofLinks` so that both take one round trip).
   */
  async fieldStates(
    sides: readonly { datasetId: string; name: string; schemaId: string | null }[],
    linkIds: readonly string[],
    m: EntityManager,
  ): Promise<{ fields: BoundField[]; links: LinkedField[] }> {
    const [row]: { fields: BoundField[]; links: LinkedField[] }[] = await m.query(
      `WITH w AS (
         SELECT DISTINCT * FROM unnest($1::uuid[], $2::text[], $3::uuid[]) AS w(dataset_id, name, schema_id)),
       f AS (
         SELECT f.id, f.dataset_id, f.name, f.origin, w.schema_id,
                EXISTS (SELECT 1 FROM field_bindings b WHERE b.field_id = f.id AND b.dataset_schema_id = w.schema_id)
                  AS bound
         FROM w JOIN fields f ON f.dataset_id = w.dataset_id AND lower(f.name) = lower(w.name) AND f.parent_id IS NULL)
       SELECT (SELECT coalesce(json_agg(f), '[]'::json) FROM f) AS fields,
              (SELECT coalesce(json_agg(l), '[]'::json) FROM (
                 SELECT id, dataset_link_id, source_field_id, target_field_id, transformations FROM field_links
                 WHERE dataset_link_id = ANY($4::uuid[])) l) AS links`,
      [sides.map((x) => x.datasetId), sides.map((x) => x.name), sides.map((x) => x.schemaId), linkIds],
    );
    return row;
  }
}
