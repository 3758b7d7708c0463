import { MAX_SEARCH_WORDS, type SearchKind, type SearchQuery, searchWords } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { escapeLike } from '../../common/crud/list.js';
import { datasetDocument, fieldDocument, type SearchDocument, systemDocument } from './search-documents.js';

/** One ranked hit, with the texts the mapper highlights. */
export interface SearchRow {
  kind: SearchKind;
  id: string;
  name: string;
  /** A system's name (its code is `name`); null for datasets and fields. */
  label: string | null;
  comment: string | null;
  field_path: string | null;
  system_id: string;
  system_code: string;
  dataset_id: string | null;
  dataset_name: string | null;
  /** 0 exact, 1 prefix, 2 text, 3 PII tag, 4 similar (SEARCH_MATCHES order). */
  match_rank: number;
  score: number;
  pii_tags: string[] | null;
  total: string;
}

// Trigram similarity on fewer than 3 characters matches nearly everything and can use no index well.
const MIN_SIMILARITY_LENGTH = 3;
// pg_trgm's default word-similarity threshold (0.6) misses one dropped letter in a 7-letter word
// (`custmer` ~ `customer` is 0.55); 0.5 finds it without flooding longer queries.
export const WORD_SIMILARITY_THRESHOLD = 0.5;

/** Columns a branch leaves empty, typed so that the UNION's column types agree. */
const NULL_COLUMNS = {
  label: 'NULL::text',
  field_path: 'NULL::text',
  dataset_id: 'NULL::uuid',
  dataset_name: 'NULL::text',
};

/**
 * Rows ranked per branch and way of matching, at most: a word found in 100,000 fields cannot all be
 * ranked within the latency budget. Names matching exactly or by prefix are fetched apart from the
 * other matches, so they are never crowded out; `total` counts the ranked rows (ADR 0016).
 */
export const CANDIDATES_PER_BRANCH = 500;

const KIND_ORDER: Record<SearchKind, number> = { system: 0, dataset: 1, field: 2 };

/** The newest classification of a field (the index ix_field_classifications_field_created serves it). */
const currentTags = (field: string) =>
  `(SELECT c.pii_tags FROM field_classifications c WHERE c.field_id = ${field}
     ORDER BY c.created_at DESC, c.id DESC LIMIT 1)`;

/**
 * The search statement: one branch per kind (plus a PII-tag branch for fields), each selected
 * through the expression indexes of migration 1765400000000-Search, ranked and paged in SQL.
 * Soft-deleted systems and datasets, and the datasets and fields under them, never match.
 */
@Injectable()
export class SearchRepository {
  /** Runs in the caller's transaction: the similarity threshold is set for it alone (SET LOCAL). */
  async search(query: SearchQuery, manager: EntityManager, similar: boolean): Promise<SearchRow[]> {
    await manager.query(`SET LOCAL pg_trgm.word_similarity_threshold = ${WORD_SIMILARITY_THRESHOLD}`);
    const { sql, params } = this.statement(query, similar);
    return manager.query<SearchRow[]>(sql, params);
  }

  /** The statement and its parameters (public for EXPLAIN in tests and the bench). */
  statement(query: SearchQuery, similarNames: boolean): { sql: string; params: unknown[] } {
    const lq = query.q.toLowerCase();
    const words = searchWords(query.q).slice(0, MAX_SEARCH_WORDS);
    // Only the parameters the statement uses are bound: PostgreSQL must infer the type of each.
    const params: unknown[] = [];
    const bind = (value: unknown, type: string) => {
      params.push(value);
      return `$${params.length}::${type}`;
    };
    const q = bind(lq, 'text');
    const tsq = `to_tsquery('simple'::regconfig, ${bind(words.map((w) => `'${w}':*`).join(' & '), 'text')})`;
    const prefix = bind(`${escapeLike(lq)}%`, 'text');
    const systemId = query.system_id === undefined ? undefined : bind(query.system_id, 'uuid');
    const piiTags = Array.isArray(query.pii) ? bind(query.pii, 'text[]') : undefined;
    const similar = similarNames && lq.length >= MIN_SIMILARITY_LENGTH;
    const piiFilter = (field: string) =>
      query.pii === undefined
        ? ''
        : query.pii === 'any'
          ? ` AND cardinality(${currentTags(field)}) > 0`
          : ` AND ${currentTags(field)} && ${piiTags}`;
    const inSystem = (column: string) => (systemId === undefined ? '' : ` AND ${column} = ${systemId}`);
    // A row matches by text or, for 3+ characters, by trigram word similarity of its name.
    const matches = (doc: SearchDocument) =>
      `(${doc.tsvector} @@ ${tsq}${similar ? ` OR ${q} <% ${doc.trigram}` : ''})`;
    const rank = (names: string[], doc: SearchDocument) =>
      `CASE WHEN ${names.map((n) => `lower(${n}) = ${q}`).join(' OR ')} THEN 0
            WHEN ${names.map((n) => `lower(${n}) LIKE ${prefix} ESCAPE '\\'`).join(' OR ')} THEN 1
            WHEN ${doc.tsvector} @@ ${tsq} THEN 2 ELSE 4 END`;
    const score = (doc: SearchDocument) =>
      `(ts_rank(${doc.tsvector}, ${tsq}) + word_similarity(${q}, ${doc.trigram}))::float8`;

    const branches: string[] = [];
    const cap = bind(CANDIDATES_PER_BRANCH, 'int');
    const MATCH = '/*match*/';
    // Two capped selections of one branch: names by exact or prefix match, then any match.
    const capped = (sql: string, byName: string, doc: SearchDocument) =>
      `(${sql.replace(MATCH, byName)} LIMIT ${cap}) UNION (${sql.replace(MATCH, matches(doc))} LIMIT ${cap})`;
    const namePrefix = (doc: SearchDocument) => `${doc.trigram} LIKE ${prefix} ESCAPE '\\'`;
    // Every branch names every column (the first branch alone would name them for the UNION).
    type Columns = Omit<Record<keyof SearchRow, string>, 'pii_tags' | 'total'>;
    const select = (
      c: Pick<Columns, 'kind' | 'id' | 'name' | 'comment' | 'match_rank' | 'score'> & Partial<Columns>,
    ) => {
      const all: Columns = { ...NULL_COLUMNS, system_id: 's.id', system_code: 's.code::text', ...c };
      // UNION pairs columns by position: the same order in every branch.
      return `SELECT ${(Object.keys(all) as (keyof Columns)[])
        .sort()
        .map((column) => `${all[column]} AS ${column}`)
        .join(', ')}`;
    };
    if (query.kinds.includes('system')) {
      const doc = systemDocument('s');
      const sql = `${select({
        kind: `'system'::text`,
        id: 's.id',
        name: 's.code::text',
        label: 's.name',
        comment: 's.note',
        match_rank: rank(['s.code', 's.name'], doc),
        score: score(doc),
      })}
        FROM systems s
        WHERE s.deleted_at IS NULL${inSystem('s.id')} AND ${MATCH}`;
      branches.push(capped(sql, namePrefix(doc), doc));
    }
    if (query.kinds.includes('dataset')) {
      const doc = datasetDocument('d');
      // A qualified name (`sales.orders`) also ranks as exact or prefix by its last part.
      const lastPart = `regexp_replace(d.object_name, '^.*[.]', '')`;
      const lastPrefix = bind(`%.${escapeLike(lq)}%`, 'text');
      const sql = `${select({
        kind: `'dataset'::text`,
        id: 'd.id',
        name: 'd.object_name',
        comment: 'd.note',
        dataset_id: 'd.id',
        dataset_name: 'd.object_name',
        match_rank: rank(['d.object_name', lastPart], doc),
        score: score(doc),
      })}
        FROM datasets d JOIN systems s ON s.id = d.system_id AND s.deleted_at IS NULL
        WHERE d.deleted_at IS NULL${inSystem('d.system_id')} AND ${MATCH}`;
      const byName = `(${namePrefix(doc)} OR ${doc.trigram} LIKE ${lastPrefix} ESCAPE '\\')`;
      branches.push(capped(sql, byName, doc));
    }
    if (query.kinds.includes('field')) {
      const doc = fieldDocument('f');
      const columns = {
        kind: `'field'::text`,
        id: 'f.id',
        name: 'f.name',
        comment: 'f.note',
        field_path: 'f.path',
        dataset_id: 'd.id',
        dataset_name: 'd.object_name',
      };
      const live = `JOIN datasets d ON d.id = f.dataset_id AND d.deleted_at IS NULL
        JOIN systems s ON s.id = d.system_id AND s.deleted_at IS NULL`;
      const sql = `${select({ ...columns, match_rank: rank(['f.name'], doc), score: score(doc) })}
        FROM fields f ${live}
        WHERE ${MATCH}${inSystem('d.system_id')}${piiFilter('f.id')}`;
      branches.push(capped(sql, namePrefix(doc), doc));
      // Fields whose current PII tags include a word of the query (and that matched nothing else).
      const tagWords = bind([...new Set([query.q, lq, ...words])], 'text[]');
      branches.push(`(${select({ ...columns, match_rank: '3', score: '0::float8' })}
        FROM field_classifications t JOIN fields f ON f.id = t.field_id ${live}
        WHERE t.pii_tags && ${tagWords}
          AND NOT EXISTS (SELECT 1 FROM field_classifications n WHERE n.field_id = t.field_id
                            AND (n.created_at, n.id) > (t.created_at, t.id))
          ${inSystem('d.system_id')} AND NOT ${matches(doc)}${piiFilter('f.id')}
        LIMIT ${cap})`);
    }
    const kindOrder = `CASE h.kind ${Object.entries(KIND_ORDER)
      .map(([kind, order]) => `WHEN '${kind}' THEN ${order}`)
      .join(' ')} END`;
    const limit = bind(query.size, 'int');
    const offset = bind((query.page - 1) * query.size, 'int');
    const sql = `WITH hits AS (${branches.join('\nUNION ALL\n')}),
      page AS (
        SELECT h.*, count(*) OVER () AS total FROM hits h
        ORDER BY h.match_rank, h.score DESC, ${kindOrder}, h.name, h.id
        LIMIT ${limit} OFFSET ${offset})
      SELECT p.*, CASE WHEN p.kind = 'field' THEN ${currentTags('p.id')} END AS pii_tags
      FROM page p
      ORDER BY p.match_rank, p.score DESC, ${kindOrder.replaceAll('h.', 'p.')}, p.name, p.id`;
    return { sql, params };
  }

  /** The number of hits, for a page past the last one (which returns no rows to count). */
  async count(query: SearchQuery, manager: EntityManager, similar: boolean): Promise<number> {
    const rows = await this.search({ ...query, page: 1, size: 1 }, manager, similar);
    return rows.length === 0 ? 0 : Number(rows[0].total);
  }
}
