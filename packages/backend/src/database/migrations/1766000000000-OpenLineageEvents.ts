import type { MigrationInterface, QueryRunner } from 'typeorm';

/** OpenLineage events received, one per run id and event type (ADR 0022). */
export class OpenLineageEvents1766000000000 implements MigrationInterface {
  name = 'OpenLineageEvents1766000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE openlineage_events (
      run_id uuid NOT NULL,
      event_type varchar(16) NOT NULL,
      event_time timestamptz NOT NULL,
      job_namespace text NOT NULL,
      job_name text NOT NULL,
      producer text NOT NULL,
      received_at timestamptz NOT NULL DEFAULT now(),
      received_by uuid,
      result jsonb,
      CONSTRAINT pk_openlineage_events PRIMARY KEY (run_id, event_type),
      CONSTRAINT fk_openlineage_events_user FOREIGN KEY (received_by) REFERENCES users (id) ON DELETE SET NULL,
      CONSTRAINT ck_openlineage_events_type
        CHECK (event_type IN ('START', 'RUNNING', 'COMPLETE', 'ABORT', 'FAIL', 'OTHER'))
    )`);
    await q.query(`CREATE INDEX ix_openlineage_events_job ON openlineage_events (job_namespace, job_name)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE openlineage_events`);
  }
}
