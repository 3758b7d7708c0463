import type { MigrationInterface, QueryRunner } from 'typeorm';

// The indexed expressions. The search queries (modules/search/search-documents.ts) repeat them
// verbatim so that the planner matches them to these indexes; test/e2e/search.e2e-spec.ts checks
// with EXPLAIN that every branch uses them.
const WORDS = (text: string) => `translate(${text}, '._-/:', '     ')`;
const DOCUMENTS = [
  {
    table: 'systems',
    names: `code || ' ' || name`,
    comment: `note`,
    trigram: `lower(code || ' ' || name)`,
    activeOnly: true,
  },
  {
    table: 'datasets',
    names: `object_name || ' ' || coalesce(layer, '')`,
    comment: `note`,
    trigram: `lower(object_name)`,
    activeOnly: true,
  },
  {
    table: 'fields',
    names: `name || ' ' || coalesce(path, '')`,
    comment: `note`,
    trigram: `lower(name)`,
    activeOnly: false,
  },
];

/**
 * Search (ADR 0016): a full-text and a trigram expression index on systems, datasets and fields, and
 * a GIN index on PII tags. PostgreSQL maintains them on every write; nothing is copied.
 */
export class Search1765400000000 implements MigrationInterface {
  name = 'Search1765400000000';

  async up(q: QueryRunner): Promise<void> {
    // pg_trgm ships with PostgreSQL (contrib); on a managed server the migrating role needs CREATE
    // on the database or the extension installed beforehand.
    await q.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    for (const doc of DOCUMENTS) {
      const where = doc.activeOnly ? ' WHERE deleted_at IS NULL' : '';
      await q.query(
        `CREATE INDEX ix_${doc.table}_search ON ${doc.table} USING gin ((` +
          `setweight(to_tsvector('simple'::regconfig, ${WORDS(doc.names)}), 'A') || ` +
          `setweight(to_tsvector('simple'::regconfig, ${WORDS(`coalesce(${doc.comment}, '')`)}), 'C')` +
          `))${where}`,
      );
      await q.query(
        `CREATE INDEX ix_${doc.table}_name_trgm ON ${doc.table} USING gin ((${doc.trigram}) gin_trgm_ops)${where}`,
      );
    }
    await q.query(
      `CREATE INDEX ix_field_classifications_pii_tags ON field_classifications USING gin (pii_tags)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_field_classifications_pii_tags`);
    for (const doc of [...DOCUMENTS].reverse()) {
      await q.query(`DROP INDEX ix_${doc.table}_name_trgm`);
      await q.query(`DROP INDEX ix_${doc.table}_search`);
    }
    // pg_trgm stays installed: dropping an extension is the administrator's decision.
  }
}
