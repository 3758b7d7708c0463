import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the OpenLineage intake observes beyond the registry (issue 27 §2, ADR 0054):
 * - dataset links whose pins are null: a dataset without a published version is linked all the same;
 * - `lineage_unknown_datasets`: each dataset the registry did not know, by (normalised namespace, name),
 *   with the fields seen (name → type, union), first/last seen, event count and, once registered, its
 *   dataset; `lineage_unknown_dataset_jobs` the jobs that named it (and in which role);
 *   `lineage_unknown_dataset_events` the events, whose body `lineage_event_payloads` keeps to replay them;
 * - `lineage_observed_schemas`: the schema facet of a matched dataset per event, with its drift from the
 *   dataset's current version.
 *
 * `down` drops the tables, deletes the links without a pin, and makes the pins required again.
 */
export class LineageObservations1766630000000 implements MigrationInterface {
  name = 'LineageObservations1766630000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE dataset_links
      ALTER COLUMN source_schema_id DROP NOT NULL,
      ALTER COLUMN target_schema_id DROP NOT NULL`);
    await q.query(`CREATE TABLE lineage_event_payloads (
      event_key text NOT NULL,
      payload jsonb NOT NULL,
      CONSTRAINT pk_lineage_event_payloads PRIMARY KEY (event_key),
      CONSTRAINT fk_lineage_event_payloads_event FOREIGN KEY (event_key)
        REFERENCES openlineage_events (event_key) ON DELETE CASCADE)`);
    await q.query(`CREATE TABLE lineage_unknown_datasets (
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      namespace text NOT NULL,
      namespace_key text NOT NULL,
      name text NOT NULL,
      fields jsonb NOT NULL DEFAULT '{}'::jsonb,
      first_seen timestamptz NOT NULL,
      last_seen timestamptz NOT NULL,
      event_count integer NOT NULL DEFAULT 0,
      registered_dataset_id uuid,
      registered_at timestamptz,
      CONSTRAINT pk_lineage_unknown_datasets PRIMARY KEY (id),
      CONSTRAINT fk_lineage_unknown_datasets_dataset FOREIGN KEY (registered_dataset_id)
        REFERENCES datasets (id) ON DELETE SET NULL)`);
    await q.query(`CREATE UNIQUE INDEX uq_lineage_unknown_datasets_name
      ON lineage_unknown_datasets (namespace_key, name)`);
    await q.query(`CREATE TABLE lineage_unknown_dataset_jobs (
      unknown_dataset_id uuid NOT NULL,
      job_namespace text NOT NULL,
      job_name text NOT NULL,
      role varchar(8) NOT NULL,
      event_count integer NOT NULL DEFAULT 0,
      first_seen timestamptz NOT NULL,
      last_seen timestamptz NOT NULL,
      CONSTRAINT pk_lineage_unknown_dataset_jobs PRIMARY KEY (unknown_dataset_id, job_namespace, job_name, role),
      CONSTRAINT ck_lineage_unknown_dataset_jobs_role CHECK (role IN ('input', 'output')),
      CONSTRAINT fk_lineage_unknown_dataset_jobs_dataset FOREIGN KEY (unknown_dataset_id)
        REFERENCES lineage_unknown_datasets (id) ON DELETE CASCADE)`);
    await q.query(`CREATE TABLE lineage_unknown_dataset_events (
      unknown_dataset_id uuid NOT NULL,
      event_key text NOT NULL,
      CONSTRAINT pk_lineage_unknown_dataset_events PRIMARY KEY (unknown_dataset_id, event_key),
      CONSTRAINT fk_lineage_unknown_dataset_events_dataset FOREIGN KEY (unknown_dataset_id)
        REFERENCES lineage_unknown_datasets (id) ON DELETE CASCADE,
      CONSTRAINT fk_lineage_unknown_dataset_events_event FOREIGN KEY (event_key)
        REFERENCES openlineage_events (event_key) ON DELETE CASCADE)`);
    await q.query(`CREATE INDEX ix_lineage_unknown_dataset_events_event
      ON lineage_unknown_dataset_events (event_key)`);
    await q.query(`CREATE TABLE lineage_observed_schemas (
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      dataset_id uuid NOT NULL,
      event_key text NOT NULL,
      run_id uuid,
      job_namespace text,
      job_name text,
      observed_at timestamptz NOT NULL,
      fields jsonb NOT NULL,
      compared_schema_id uuid,
      drift varchar(16) NOT NULL,
      type_comparison varchar(16) NOT NULL,
      changes jsonb NOT NULL,
      CONSTRAINT pk_lineage_observed_schemas PRIMARY KEY (id),
      CONSTRAINT ck_lineage_observed_schemas_drift CHECK (drift IN ('none', 'compatible', 'breaking')),
      CONSTRAINT fk_lineage_observed_schemas_dataset FOREIGN KEY (dataset_id)
        REFERENCES datasets (id) ON DELETE CASCADE,
      CONSTRAINT fk_lineage_observed_schemas_event FOREIGN KEY (event_key)
        REFERENCES openlineage_events (event_key) ON DELETE CASCADE,
      CONSTRAINT fk_lineage_observed_schemas_schema FOREIGN KEY (compared_schema_id)
        REFERENCES dataset_schemas (id) ON DELETE SET NULL)`);
    await q.query(`CREATE UNIQUE INDEX uq_lineage_observed_schemas_event
      ON lineage_observed_schemas (dataset_id, event_key)`);
    await q.query(`CREATE INDEX ix_lineage_observed_schemas_event ON lineage_observed_schemas (event_key)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE lineage_observed_schemas`);
    await q.query(`DROP TABLE lineage_unknown_dataset_events`);
    await q.query(`DROP TABLE lineage_unknown_dataset_jobs`);
    await q.query(`DROP TABLE lineage_unknown_datasets`);
    await q.query(`DROP TABLE lineage_event_payloads`);
    await q.query(`DELETE FROM field_links WHERE dataset_link_id IN
      (SELECT id FROM dataset_links WHERE source_schema_id IS NULL OR target_schema_id IS NULL)`);
    await q.query(`DELETE FROM dataset_links WHERE source_schema_id IS NULL OR target_schema_id IS NULL`);
    await q.query(`ALTER TABLE dataset_links
      ALTER COLUMN source_schema_id SET NOT NULL,
      ALTER COLUMN target_schema_id SET NOT NULL`);
  }
}
