import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Jobs, job versions and runs from OpenLineage events (issue 27 §3, ADR 0053), Marquez's model:
 *
 * - `lineage_jobs`: one per (namespace, name), with its facets (the latest of each name) and its current
 *   version.
 * - `lineage_job_versions`: content-addressed (`content_hash` of inputs, outputs, sourceCodeLocation and
 *   sql), numbered per job, with the run that introduced it.
 * - `lineage_runs`: one per OpenLineage runId, with its state, times, parent, facets and job version.
 * - `lineage_run_datasets`: each run's inputs and outputs, the registered dataset when matched, with their
 *   input/output facets.
 * - `lineage_run_events`: the run's events as sent (the raw body), one per intake event key.
 * - `lineage_job_datasets`: each job's current inputs and outputs as graph edges, keyed by
 *   `dataset_key` (`dataset:<registered id>`, else `dataset:<namespace>/<name>`), for the job graph.
 *
 * `down` drops the six tables.
 */
export class LineageJobsRuns1766620000000 implements MigrationInterface {
  name = 'LineageJobsRuns1766620000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE lineage_jobs (
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      namespace text NOT NULL,
      name text NOT NULL,
      facets jsonb NOT NULL DEFAULT '{}',
      facets_time timestamptz NOT NULL,
      current_version_id uuid,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT pk_lineage_jobs PRIMARY KEY (id)
    )`);
    await q.query(`CREATE UNIQUE INDEX uq_lineage_jobs_name ON lineage_jobs (namespace, name)`);
    await q.query(`CREATE INDEX ix_lineage_jobs_name ON lineage_jobs (name)`);
    await q.query(`CREATE TABLE lineage_runs (
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      run_id uuid NOT NULL,
      job_id uuid NOT NULL,
      job_version_id uuid,
      state varchar(16) NOT NULL,
      state_time timestamptz NOT NULL,
      started_at timestamptz,
      ended_at timestamptz,
      nominal_start_time timestamptz,
      nominal_end_time timestamptz,
      parent_run_id text,
      parent_job_namespace text,
      parent_job_name text,
      parent_id uuid,
      facets jsonb NOT NULL DEFAULT '{}',
      first_event_time timestamptz NOT NULL,
      last_event_time timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT pk_lineage_runs PRIMARY KEY (id),
      CONSTRAINT fk_lineage_runs_job FOREIGN KEY (job_id) REFERENCES lineage_jobs (id) ON DELETE CASCADE,
      CONSTRAINT fk_lineage_runs_parent FOREIGN KEY (parent_id) REFERENCES lineage_runs (id) ON DELETE SET NULL,
      CONSTRAINT ck_lineage_runs_state CHECK (state IN ('NEW', 'RUNNING', 'COMPLETED', 'FAILED', 'ABORTED'))
    )`);
    await q.query(`CREATE UNIQUE INDEX uq_lineage_runs_run ON lineage_runs (run_id)`);
    await q.query(`CREATE INDEX ix_lineage_runs_job ON lineage_runs (job_id, first_event_time)`);
    await q.query(`CREATE INDEX ix_lineage_runs_parent ON lineage_runs (parent_run_id)`);
    await q.query(`CREATE TABLE lineage_job_versions (
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      job_id uuid NOT NULL,
      version integer NOT NULL,
      content_hash text NOT NULL,
      inputs jsonb NOT NULL,
      outputs jsonb NOT NULL,
      source_code_location jsonb,
      sql text,
      introduced_by_run_id uuid,
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT pk_lineage_job_versions PRIMARY KEY (id),
      CONSTRAINT fk_lineage_job_versions_job FOREIGN KEY (job_id) REFERENCES lineage_jobs (id) ON DELETE CASCADE,
      CONSTRAINT fk_lineage_job_versions_run FOREIGN KEY (introduced_by_run_id) REFERENCES lineage_runs (id) ON DELETE SET NULL
    )`);
    await q.query(
      `CREATE UNIQUE INDEX uq_lineage_job_versions_version ON lineage_job_versions (job_id, version)`,
    );
    await q.query(
      `CREATE UNIQUE INDEX uq_lineage_job_versions_hash ON lineage_job_versions (job_id, content_hash)`,
    );
    await q.query(`ALTER TABLE lineage_jobs ADD CONSTRAINT fk_lineage_jobs_version
      FOREIGN KEY (current_version_id) REFERENCES lineage_job_versions (id) ON DELETE SET NULL`);
    await q.query(`ALTER TABLE lineage_runs ADD CONSTRAINT fk_lineage_runs_version
      FOREIGN KEY (job_version_id) REFERENCES lineage_job_versions (id) ON DELETE SET NULL`);
    await q.query(`CREATE TABLE lineage_run_datasets (
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      lineage_run_id uuid NOT NULL,
      role varchar(8) NOT NULL,
      namespace text NOT NULL,
      name text NOT NULL,
      dataset_id uuid,
      facets jsonb NOT NULL DEFAULT '{}',
      event_time timestamptz NOT NULL,
      CONSTRAINT pk_lineage_run_datasets PRIMARY KEY (id),
      CONSTRAINT fk_lineage_run_datasets_run FOREIGN KEY (lineage_run_id) REFERENCES lineage_runs (id) ON DELETE CASCADE,
      CONSTRAINT fk_lineage_run_datasets_dataset FOREIGN KEY (dataset_id) REFERENCES datasets (id) ON DELETE SET NULL,
      CONSTRAINT ck_lineage_run_datasets_role CHECK (role IN ('input', 'output'))
    )`);
    await q.query(`CREATE UNIQUE INDEX uq_lineage_run_datasets_name
      ON lineage_run_datasets (lineage_run_id, role, namespace, name)`);
    await q.query(
      `CREATE INDEX ix_lineage_run_datasets_dataset ON lineage_run_datasets (dataset_id, event_time)`,
    );
    await q.query(`CREATE TABLE lineage_run_events (
      event_key text NOT NULL,
      lineage_run_id uuid NOT NULL,
      event_type varchar(16) NOT NULL,
      event_time timestamptz NOT NULL,
      received_at timestamptz NOT NULL DEFAULT now(),
      event jsonb NOT NULL,
      CONSTRAINT pk_lineage_run_events PRIMARY KEY (event_key),
      CONSTRAINT fk_lineage_run_events_run FOREIGN KEY (lineage_run_id) REFERENCES lineage_runs (id) ON DELETE CASCADE
    )`);
    await q.query(
      `CREATE INDEX ix_lineage_run_events_run ON lineage_run_events (lineage_run_id, event_time)`,
    );
    await q.query(`CREATE INDEX ix_lineage_run_events_received ON lineage_run_events (received_at)`);
    await q.query(`CREATE TABLE lineage_job_datasets (
      job_id uuid NOT NULL,
      role varchar(8) NOT NULL,
      dataset_key text NOT NULL,
      namespace text NOT NULL,
      name text NOT NULL,
      dataset_id uuid,
      CONSTRAINT pk_lineage_job_datasets PRIMARY KEY (job_id, role, dataset_key),
      CONSTRAINT fk_lineage_job_datasets_job FOREIGN KEY (job_id) REFERENCES lineage_jobs (id) ON DELETE CASCADE,
      CONSTRAINT fk_lineage_job_datasets_dataset FOREIGN KEY (dataset_id) REFERENCES datasets (id) ON DELETE CASCADE,
      CONSTRAINT ck_lineage_job_datasets_role CHECK (role IN ('input', 'output'))
    )`);
    await q.query(`CREATE INDEX ix_lineage_job_datasets_key ON lineage_job_datasets (dataset_key, role)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE lineage_job_datasets`);
    await q.query(`DROP TABLE lineage_run_events`);
    await q.query(`DROP TABLE lineage_run_datasets`);
    await q.query(`ALTER TABLE lineage_jobs DROP CONSTRAINT fk_lineage_jobs_version`);
    await q.query(`ALTER TABLE lineage_runs DROP CONSTRAINT fk_lineage_runs_version`);
    await q.query(`DROP TABLE lineage_job_versions`);
    await q.query(`DROP TABLE lineage_runs`);
    await q.query(`DROP TABLE lineage_jobs`);
  }
}
