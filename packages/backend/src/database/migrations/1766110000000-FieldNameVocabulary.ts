import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The distinct lower-cased field names (ADR 0025): the similar-spelling pass of search probes these
 * by trigram — tens of thousands of names where the catalogue has millions of fields — and then
 * finds the fields by name through ix_fields_name_lower. Kept by statement-level triggers on fields
 * (one INSERT … ON CONFLICT DO NOTHING per statement, names in sorted order so that concurrent
 * writers take their locks in the same order). Names are never removed: a name no field has any
 * more costs one btree probe that finds nothing.
 */
export class FieldNameVocabulary1766110000000 implements MigrationInterface {
  name = 'FieldNameVocabulary1766110000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE field_names (name text PRIMARY KEY)`);
    await q.query(`CREATE INDEX ix_field_names_trgm ON field_names USING gin (name gin_trgm_ops)`);
    await q.query(`CREATE FUNCTION field_names_collect() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO field_names (name)
        SELECT DISTINCT lower(n.name) FROM new_fields n ORDER BY 1
        ON CONFLICT DO NOTHING;
        RETURN NULL;
      END $$`);
    for (const event of ['INSERT', 'UPDATE']) {
      await q.query(
        `CREATE TRIGGER tr_fields_names_${event.toLowerCase()} AFTER ${event} ON fields
         REFERENCING NEW TABLE AS new_fields FOR EACH STATEMENT EXECUTE FUNCTION field_names_collect()`,
      );
    }
    await q.query(
      `INSERT INTO field_names (name) SELECT DISTINCT lower(name) FROM fields ORDER BY 1 ON CONFLICT DO NOTHING`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER tr_fields_names_update ON fields`);
    await q.query(`DROP TRIGGER tr_fields_names_insert ON fields`);
    await q.query(`DROP FUNCTION field_names_collect()`);
    await q.query(`DROP TABLE field_names`);
  }
}
