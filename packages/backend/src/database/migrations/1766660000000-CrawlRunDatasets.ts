import type { MigrationInterface, QueryRunner } from 'typeorm';

// A dataset id as a report may hold it; anything else in the client-written report is not an id.
const UUID = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
const IDS_AT = (path: string) =>
  `SELECT (id #>> '{}')::uuid FROM jsonb_path_query(report, '${path}[*].dataset_id ? (@ like_regex "${UUID}" flag "i")', '{}', true) AS ids(id)`;

/**
 * `crawl_run_datasets`: the datasets each crawl run's report names — a crawl's
 * `diff_payload.datasets[].dataset_id`, an apply's `diff_payload.applied[].dataset_id` — so that
 * `GET /crawl-runs?dataset_id=` is an index read (ADR 0061). The database keeps it: a trigger refills a
 * run's rows whenever its `diff_payload` is written, through `crawl_run_dataset_ids(report)`, which
 * the backfill below uses too. No foreign key to datasets: a report is written by its client and may
 * name an id the registry no longer (or never) had; what it names is what the filter answers.
 *
 * `down` drops the trigger, the functions and the table.
 */
export class CrawlRunDatasets1766660000000 implements MigrationInterface {
  name = 'CrawlRunDatasets1766660000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE crawl_run_datasets (
      crawl_run_id uuid NOT NULL,
      dataset_id uuid NOT NULL,
      CONSTRAINT pk_crawl_run_datasets PRIMARY KEY (crawl_run_id, dataset_id),
      CONSTRAINT fk_crawl_run_datasets_run FOREIGN KEY (crawl_run_id) REFERENCES crawl_runs (id) ON DELETE CASCADE)`);
    // The filter's index. The dataset alone: a b-tree keeps one entry per dataset and a list of rows
    // (deduplication): under a third of the size of (dataset_id, crawl_run_id), which cannot deduplicate.
    await q.query(`CREATE INDEX ix_crawl_run_datasets_dataset ON crawl_run_datasets (dataset_id)`);
    // Lax paths, errors silenced: a report of any shape gives the ids it has, and never fails a write.
    await q.query(`CREATE FUNCTION crawl_run_dataset_ids(report jsonb) RETURNS SETOF uuid
      LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ ${IDS_AT('$.datasets')} UNION ${IDS_AT('$.applied')} $$`);
    await q.query(`CREATE FUNCTION crawl_runs_index_datasets() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'UPDATE' THEN
          IF NEW.diff_payload IS NOT DISTINCT FROM OLD.diff_payload THEN RETURN NULL; END IF;
          DELETE FROM crawl_run_datasets WHERE crawl_run_id = NEW.id;
        END IF;
        INSERT INTO crawl_run_datasets (crawl_run_id, dataset_id)
          SELECT NEW.id, ids.id FROM crawl_run_dataset_ids(NEW.diff_payload) AS ids(id);
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER tr_crawl_runs_datasets AFTER INSERT OR UPDATE OF diff_payload ON crawl_runs
      FOR EACH ROW EXECUTE FUNCTION crawl_runs_index_datasets()`);
    await q.query(`INSERT INTO crawl_run_datasets (crawl_run_id, dataset_id)
      SELECT r.id, ids.id FROM crawl_runs r, crawl_run_dataset_ids(r.diff_payload) AS ids(id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER tr_crawl_runs_datasets ON crawl_runs`);
    await q.query(`DROP FUNCTION crawl_runs_index_datasets()`);
    await q.query(`DROP FUNCTION crawl_run_dataset_ids(jsonb)`);
    await q.query(`DROP TABLE crawl_run_datasets`);
  }
}
