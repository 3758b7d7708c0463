import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The rows that name an OpenLineage event by its key: checked at commit (ADR 0063). */
const EVENT_FOREIGN_KEYS = [
  ['lineage_event_payloads', 'fk_lineage_event_payloads_event'],
  ['lineage_unknown_dataset_events', 'fk_lineage_unknown_dataset_events_event'],
  ['lineage_observed_schemas', 'fk_lineage_observed_schemas_event'],
] as const;

/**
 * The intake writes an event's row once, last, with its answer (ADR 0063): the rows that name the event
 * are written before it, so their foreign keys to `openlineage_events` are checked at commit. A run's
 * observations are looked up by run and dataset (an event that repeats what its run saw adds no row).
 * `down` makes the keys immediate again and drops the index.
 */
export class OpenLineageEventWrittenOnce1766650000000 implements MigrationInterface {
  name = 'OpenLineageEventWrittenOnce1766650000000';

  async up(q: QueryRunner): Promise<void> {
    for (const [table, key] of EVENT_FOREIGN_KEYS) {
      await q.query(`ALTER TABLE ${table} ALTER CONSTRAINT ${key} DEFERRABLE INITIALLY DEFERRED`);
    }
    await q.query(`CREATE INDEX ix_lineage_observed_schemas_run ON lineage_observed_schemas (run_id, dataset_id)
      WHERE run_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX ix_lineage_observed_schemas_run');
    for (const [table, key] of EVENT_FOREIGN_KEYS) {
      await q.query(`ALTER TABLE ${table} ALTER CONSTRAINT ${key} NOT DEFERRABLE`);
    }
  }
}
