import type { MigrationInterface, QueryRunner } from 'typeorm';

// Search at scale (ADR 0018). Ranking recomputed every candidate's tsvector (for its rank and its
// match tier); the vector now lives in a stored column that a trigger keeps up to date, read by the
// ranking. Matching still goes through the expression GIN indexes of 1765400000000-Search: the planner
// costs the expression per row, so it prefers those indexes to a scan even on small tables.
// Names get btree indexes in byte order, so an exact or prefix match reads its first rows in
// index order and stops; a field's current PII tags are kept on the field by a trigger on the
// append-only history, so a PII filter is a column check instead of a sub-select per candidate.
// The expressions are copied here, not imported: a migration must not change when the code does.
const WORDS = (text: string) => `translate(${text}, '._-/:', '     ')`;
const VECTOR = (names: string, comment: string) =>
  `setweight(to_tsvector('simple'::regconfig, ${WORDS(names)}), 'A') || ` +
  `setweight(to_tsvector('simple'::regconfig, ${WORDS(`coalesce(${comment}, '')`)}), 'C')`;

const DOCUMENTS = [
  {
    table: 'systems',
    names: (r: string) => `${r}code || ' ' || ${r}name`,
    columns: 'code, name, note',
  },
  {
    table: 'datasets',
    names: (r: string) => `${r}object_name || ' ' || coalesce(${r}layer, '')`,
    columns: 'object_name, layer, note',
  },
  {
    table: 'fields',
    names: (r: string) => `${r}name || ' ' || coalesce(${r}path, '')`,
    columns: 'name, path, note',
  },
];

/**
 * Names in byte order (collation "C"): one index serves equality, `LIKE 'x%'` (a range) and ORDER BY,
 * so the first names matching a prefix are read in order, the exact match first, and the scan stops.
 */
const NAME_INDEXES = [
  `CREATE INDEX ix_fields_name_lower ON fields ((lower(name) COLLATE "C"))`,
  `CREATE INDEX ix_datasets_name_lower ON datasets ((lower(object_name) COLLATE "C")) WHERE deleted_at IS NULL`,
  // The last part of a qualified name (`sales.orders` → `orders`) ranks as a name too.
  `CREATE INDEX ix_datasets_last_name_lower ON datasets ((lower(regexp_replace(object_name, '^.*[.]', '')) COLLATE "C")) WHERE deleted_at IS NULL`,
  // The fields of one system's datasets (search with system_id), nested ones included.
  `CREATE INDEX ix_fields_dataset ON fields (dataset_id)`,
];

export class SearchColumns1765550000000 implements MigrationInterface {
  name = 'SearchColumns1765550000000';

  async up(q: QueryRunner): Promise<void> {
    for (const doc of DOCUMENTS) {
      await q.query(`ALTER TABLE ${doc.table} ADD COLUMN search_vector tsvector`);
      await q.query(
        `CREATE FUNCTION ${doc.table}_search_vector() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
           NEW.search_vector := ${VECTOR(doc.names('NEW.'), 'NEW.note')};
           RETURN NEW;
         END $$`,
      );
      await q.query(
        `CREATE TRIGGER tr_${doc.table}_search_vector BEFORE INSERT OR UPDATE OF ${doc.columns}
         ON ${doc.table} FOR EACH ROW EXECUTE FUNCTION ${doc.table}_search_vector()`,
      );
      await q.query(`UPDATE ${doc.table} t SET search_vector = ${VECTOR(doc.names('t.'), 't.note')}`);
    }
    for (const sql of NAME_INDEXES) await q.query(sql);

    // A field's current PII tags (its newest classification; null when never classified).
    await q.query(`ALTER TABLE fields ADD COLUMN pii_tags text[]`);
    await q.query(
      `CREATE FUNCTION fields_current_pii_tags() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         UPDATE fields f SET pii_tags = (
           SELECT c.pii_tags FROM field_classifications c WHERE c.field_id = f.id
           ORDER BY c.created_at DESC, c.id DESC LIMIT 1)
         WHERE f.id = NEW.field_id;
         RETURN NULL;
       END $$`,
    );
    // The history is append-only (no update or delete route); a field's deletion takes its history with it.
    await q.query(
      `CREATE TRIGGER tr_field_classifications_current AFTER INSERT ON field_classifications
       FOR EACH ROW EXECUTE FUNCTION fields_current_pii_tags()`,
    );
    await q.query(
      `UPDATE fields f SET pii_tags = c.pii_tags
       FROM (SELECT DISTINCT ON (field_id) field_id, pii_tags FROM field_classifications
             ORDER BY field_id, created_at DESC, id DESC) c
       WHERE c.field_id = f.id`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER tr_field_classifications_current ON field_classifications`);
    await q.query(`DROP FUNCTION fields_current_pii_tags()`);
    await q.query(`ALTER TABLE fields DROP COLUMN pii_tags`);
    for (const sql of [...NAME_INDEXES].reverse()) {
      await q.query(`DROP INDEX ${/CREATE INDEX (\w+)/.exec(sql)?.[1]}`);
    }
    for (const doc of [...DOCUMENTS].reverse()) {
      await q.query(`DROP TRIGGER tr_${doc.table}_search_vector ON ${doc.table}`);
      await q.query(`DROP FUNCTION ${doc.table}_search_vector()`);
      await q.query(`ALTER TABLE ${doc.table} DROP COLUMN search_vector`);
    }
  }
}
