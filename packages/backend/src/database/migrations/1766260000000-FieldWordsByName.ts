import type { MigrationInterface, QueryRunner } from 'typeorm';

// pg_trgm's word-similarity operators (`<%` and its commutator `%>`), priced as the cost of one
// comparison: a row test computes the trigrams of both strings, ~100 times a plain comparison.
const TRIGRAM_OPERATORS = ['word_similarity_op(text, text)', 'word_similarity_commutator_op(text, text)'];
const TRIGRAM_COST = 100;

// The fields' search document (1765400000000-Search, `fieldDocument` in modules/search/search-documents.ts).
const FIELD_DOCUMENT = `(setweight(to_tsvector('simple'::regconfig, translate(name || ' ' || coalesce(path, ''), '._-/:', '     ')), 'A') || setweight(to_tsvector('simple'::regconfig, translate(coalesce(note, ''), '._-/:', '     ')), 'C'))`;

/**
 * The word pass of search finds fields without a GIN probe of every field (ADR 0031, 2026-12-03
 * amendment). A field with no note and no path of its own (null, or its name: what a publish stores)
 * has for its words those of its name alone, so it is found through the name vocabulary
 * (`field_names`, 1766110000000-FieldNameVocabulary): the names whose words (the stored column
 * `words`) match, then their fields by ix_fields_name_lower. The other fields — a note, or a
 * nested path — are in a partial GIN index of the same document, ix_fields_search_noted. On 2,000,000
 * fields, a word prefix read from ix_fields_search collects every matching entry into a bitmap
 * (`'merchant':* & 'rating':* & '7':*`: 230,000 entries, 50 ms); from the vocabulary and the partial
 * index, 5 ms. The predicates are, character for character, `fieldNoted` of search-documents.ts.
 *
 * And the word-similarity operators get their real cost (TRIGRAM_OPERATORS): priced as one
 * comparison, a test of 1,000 systems or 1,000 vocabulary names row by row looked cheaper than their
 * trigram index (5 ms against 1 ms). Only where the migrating role owns pg_trgm's functions (it
 * created the extension) and finds them on its search path; elsewhere a notice, and plans as before.
 * A planner estimate only: not kept by pg_dump, reset by an `ALTER EXTENSION pg_trgm UPDATE` that
 * redefines them.
 */
export class FieldWordsByName1766260000000 implements MigrationInterface {
  name = 'FieldWordsByName1766260000000';

  async up(q: QueryRunner): Promise<void> {
    // Stored, not an expression index: a small vocabulary is read whole (the planner prices its GIN
    // above a scan of 1,000 names), and the stored words cost nothing to test where an expression
    // computes to_tsvector again for every name (2 ms for 1,000 names). The table has no entity.
    await q.query(
      `ALTER TABLE field_names ADD COLUMN words tsvector
       GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, translate(name, '._-/:', '     '))) STORED`,
    );
    await q.query(`CREATE INDEX ix_field_names_search ON field_names USING gin (words)`);
    await q.query(
      `CREATE INDEX ix_fields_search_noted ON fields USING gin (${FIELD_DOCUMENT})
       WHERE note IS NOT NULL OR path <> name`,
    );
    await q.query(this.trigramCost(TRIGRAM_COST));
  }

  private trigramCost(cost: number): string {
    const alter = TRIGRAM_OPERATORS.map((f) => `ALTER FUNCTION ${f} COST ${cost};`).join(' ');
    return `DO $$ BEGIN ${alter}
      EXCEPTION WHEN insufficient_privilege OR undefined_function THEN
        RAISE NOTICE 'pg_trgm word-similarity cost left as is: %', SQLERRM;
      END $$`;
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(this.trigramCost(1));
    await q.query(`DROP INDEX ix_fields_search_noted`);
    await q.query(`DROP INDEX ix_field_names_search`);
    await q.query(`ALTER TABLE field_names DROP COLUMN words`);
  }
}
