import type { OpenLineageEventKind, OpenLineageEventType } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { registerConstraintCodes } from '../../common/errors/db-error.js';
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

registerConstraintCodes({ fk_openlineage_events_user: 'USER_NOT_FOUND' });

/** A stored location as `normalizeNamespace` writes URIs: s3a/s3n read as s3, no trailing slash. */
const LOCATION = (column: string) => `regexp_replace(rtrim(${column}, '/'), '^s3[an]://', 's3://')`;

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
 * event: the event row (the idempotency claim, by event key), systems by namespace, datasets by name, their current
 * versions and bindings. Links and field links are written by their own modules (`DatasetLinkBatch`,
 * `FieldLinkBatch`, with ON CONFLICT so that a concurrent writer is not an error; ADR 0026).
 */
@Injectable()
export class OpenLineageRepository {
  /** Claims the event's key: false when it was received before (the other claim has committed). */
  async claim(event: ReceivedEvent, actorId: string, m: EntityManager): Promise<boolean> {
    const rows: unknown[] = await m.query(
      `INSERT INTO openlineage_events (event_key, kind, run_id, event_type, event_time, job_namespace, job_name,
                                       dataset_namespace, dataset_name, producer, received_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (event_key) DO NOTHING RETURNING event_key`,
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
    return m.query(
      `SELECT id, code, extra FROM systems
       WHERE deleted_at IS NULL
         AND (extra ?| array['openlineage_namespace', 'openlineage_namespaces'] OR lower(code) = ANY($1::text[]))`,
      [codes],
    );
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

  /** Which of the (field, version) pairs have a binding: `fieldId/schemaId` keys. */
  async bound(pairs: readonly [string, string][], m: EntityManager): Promise<Set<string>> {
    if (pairs.length === 0) return new Set();
    const rows: { field_id: string; dataset_schema_id: string }[] = await m.query(
      `SELECT b.field_id, b.dataset_schema_id FROM unnest($1::uuid[], $2::uuid[]) AS p(f, s)
       JOIN field_bindings b ON b.field_id = p.f AND b.dataset_schema_id = p.s`,
      [pairs.map((p) => p[0]), pairs.map((p) => p[1])],
    );
    return new Set(rows.map((r) => `${r.field_id}/${r.dataset_schema_id}`));
  }
}
