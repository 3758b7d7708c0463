import type { MigrationInterface, QueryRunner } from 'typeorm';

// ix_fields_search as 1765400000000-Search created it, character for character (for `down`).
const FIELD_DOCUMENT = `(setweight(to_tsvector('simple'::regconfig, translate(name || ' ' || coalesce(path, ''), '._-/:', '     ')), 'A') || setweight(to_tsvector('simple'::regconfig, translate(coalesce(note, ''), '._-/:', '     ')), 'C'))`;

/**
 * The full-text GIN index of every field is dropped (ADR 0031, 2026-12-03 amendment of the drop): no
 * statement reads it any more. Search finds a field by its words through the name vocabulary
 * (`field_names.words`) or, when it has a note or a path of its own, through the partial index
 * ix_fields_search_noted (1766260000000-FieldWordsByName); the filter-driven and PII-tag branches test
 * the words row by row. Every field insert (a publish, a crawler apply) paid for its upkeep. The
 * trigram index ix_fields_name_trgm (`name__like`) stays.
 */
export class DropFieldsSearchIndex1766270000000 implements MigrationInterface {
  name = 'DropFieldsSearchIndex1766270000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_fields_search`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX ix_fields_search ON fields USING gin (${FIELD_DOCUMENT})`);
  }
}
