import type { MigrationInterface, QueryRunner } from 'typeorm';

/** What a row of each kind must name: a RunEvent its run and job, a JobEvent its job, a DatasetEvent its dataset. */
export const OPENLINEAGE_EVENT_SHAPE =
  "(kind = 'run' AND run_id IS NOT NULL AND event_type IS NOT NULL AND job_name IS NOT NULL) OR " +
  "(kind = 'job' AND run_id IS NULL AND event_type IS NULL AND job_name IS NOT NULL) OR " +
  "(kind = 'dataset' AND run_id IS NULL AND event_type IS NULL AND dataset_name IS NOT NULL)";

/**
 * OpenLineage JobEvents and DatasetEvents (ADR 0051) stored next to RunEvents: one row per event, keyed
 * by `event_key` — `run:<run id>:<event type>` for a RunEvent (the key of ADR 0022, unchanged), and
 * `job:` / `dataset:` + the SHA-256 of the event's canonical JSON for the two events without a run.
 * `run_id`, `event_type` and the job are null where the event has none (`ck_openlineage_events_shape`).
 *
 * `down` deletes the JobEvents and DatasetEvents received, then restores the (run id, event type) key.
 */
export class OpenLineageEventKinds1766610000000 implements MigrationInterface {
  name = 'OpenLineageEventKinds1766610000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE openlineage_events
      ADD COLUMN event_key text,
      ADD COLUMN kind varchar(8) NOT NULL DEFAULT 'run',
      ADD COLUMN dataset_namespace text,
      ADD COLUMN dataset_name text`);
    await q.query(`UPDATE openlineage_events SET event_key = 'run:' || run_id || ':' || event_type`);
    await q.query(`ALTER TABLE openlineage_events
      ALTER COLUMN event_key SET NOT NULL,
      ALTER COLUMN kind DROP DEFAULT,
      DROP CONSTRAINT pk_openlineage_events,
      ADD CONSTRAINT pk_openlineage_events PRIMARY KEY (event_key),
      ALTER COLUMN run_id DROP NOT NULL,
      ALTER COLUMN event_type DROP NOT NULL,
      ALTER COLUMN job_namespace DROP NOT NULL,
      ALTER COLUMN job_name DROP NOT NULL,
      ADD CONSTRAINT ck_openlineage_events_kind CHECK (kind IN ('run', 'job', 'dataset')),
      ADD CONSTRAINT ck_openlineage_events_shape CHECK (${OPENLINEAGE_EVENT_SHAPE})`);
    await q.query(`CREATE INDEX ix_openlineage_events_run ON openlineage_events (run_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM openlineage_events WHERE kind <> 'run'`);
    await q.query(`DROP INDEX ix_openlineage_events_run`);
    await q.query(`ALTER TABLE openlineage_events
      DROP CONSTRAINT ck_openlineage_events_shape,
      DROP CONSTRAINT ck_openlineage_events_kind,
      DROP CONSTRAINT pk_openlineage_events,
      ALTER COLUMN run_id SET NOT NULL,
      ALTER COLUMN event_type SET NOT NULL,
      ALTER COLUMN job_namespace SET NOT NULL,
      ALTER COLUMN job_name SET NOT NULL,
      ADD CONSTRAINT pk_openlineage_events PRIMARY KEY (run_id, event_type),
      DROP COLUMN dataset_name,
      DROP COLUMN dataset_namespace,
      DROP COLUMN kind,
      DROP COLUMN event_key`);
  }
}
