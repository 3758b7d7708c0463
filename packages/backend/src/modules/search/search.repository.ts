import { MAX_SEARCH_WORDS, type SearchKind, type SearchQuery, searchWords } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { escapeLike } from '../../common/crud/list.js';
import {
  datasetDocument,
  fieldDocument,
  fieldNameOnly,
  fieldNameWords,
  fieldNoted,
  type SearchDocument,
  systemDocument,
} from './search-documents.js';

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
/**
 * Characters of the text compared by similarity, at most. A trigram probe reads the posting list of
 * every trigram of the text, and a 200-character text of common trigrams has ~200 of them (332 ms at
 * 2,000,000 fields, where 64 characters take a third of that: ADR 0034); a name is similar to a text
 * only when it holds half of the text's trigrams, so a longer text finds (nearly) nothing more.
 */
export const MAX_SIMILARITY_LENGTH = 64;

/**
 * The text compared by trigram similarity: the query's words (what pg_trgm makes trigrams of: letters
 * and digits; `'''…a` is `a`), at most MAX_SIMILARITY_LENGTH characters. Words alone give pg_trgm the
 * same trigrams as the text they came from, so similarities are unchanged; the minimum length then
 * counts letters and digits, not quotes.
 */
export function similarityText(q: string): string {
  return searchWords(q).join(' ').slice(0, MAX_SIMILARITY_LENGTH).trimEnd();
}
// pg_trgm's default word-similarity threshold (0.6) misses one dropped letter in a 7-letter word
// (`custmer` ~ `customer` is 0.55); 0.5 finds it without flooding longer queries.
export const WORD_SIMILARITY_THRESHOLD = 0.5;

/**
 * Set (LOCAL) in the search's transaction. The similarity threshold; no parallel workers (a search
 * reads a few hundred rows, and starting workers costs more on a small machine than it saves); and no
 * sequential scans: every part of the statement is written for an index, but under a LIMIT the planner
 * bets that a sequential scan meets enough matches early, which for a rare word means reading all
 * 2,000,000 fields (ADR 0018).
 */
export const SEARCH_SETTINGS: readonly string[] = [
  `SET LOCAL pg_trgm.word_similarity_threshold = ${WORD_SIMILARITY_THRESHOLD}`,
  'SET LOCAL max_parallel_workers_per_gather = 0',
  'SET LOCAL enable_seqscan = off',
];

/**
 * SEARCH_SETTINGS and the search's statement timeout, as one statement (one round trip: a statement
 * without parameters may hold several). The timeout bounds each later statement of the transaction
 * (ADR 0034); PostgreSQL cancels one that runs longer, waiting on a lock included (SQLSTATE 57014).
 */
export const searchSettings = (statementTimeoutMs: number): string =>
  [...SEARCH_SETTINGS, `SET LOCAL statement_timeout = ${Math.trunc(statementTimeoutMs)}`].join('; ');

/**
 * Whether to run the statement again with similar spellings, after a first pass found `total` hits.
 * Only after no hit at all: the similar-spelling statement leaves out the parts (names, PII tags)
 * that the first pass found empty.
 */
export const lookForSimilar = (total: number): boolean => total === 0;

/** Columns a branch leaves empty, typed so that the UNION's column types agree. */
const NULL_COLUMNS = {
  label: 'NULL::text',
  field_path: 'NULL::text',
  dataset_id: 'NULL::uuid',
  dataset_name: 'NULL::text',
  pii_tags: 'NULL::text[]',
};

/**
 * Rows ranked per branch and way of matching, at most: a word found in 100,000 fields cannot all be
 * ranked within the latency budget. Names matching exactly or by prefix are fetched apart from the
 * other matches, so they are never crowded out; `total` counts the ranked rows (ADR 0016).
 */
export const CANDIDATES_PER_BRANCH = 500;

/**
 * A filtered field search (`pii` tags, `system_id`) whose filter leaves at most this many fields is
 * driven by the filter (ADR 0025): those fields are read by primary key and matched one by one, rather
 * than walking the name and word indexes of the whole catalogue and rejecting what the filter excludes.
 */
export const FILTER_POOL_CAP = 10_000;

/** Distinct field names a similar-spelling search looks for fields under, most similar first (ADR 0025). */
export const SIMILAR_FIELD_NAMES = 100;

const KIND_ORDER: Record<SearchKind, number> = { system: 0, dataset: 1, field: 2 };

/**
 * The search statement: one branch per kind (plus a PII-tag branch for fields), each selected
 * through the indexes of migrations 1765400000000-Search and 1765550000000-SearchColumns, ranked and
 * paged in SQL (ADR 0018). Soft-deleted systems and datasets, and the datasets and fields under them,
 * never match.
 *
 * Bounded work: a branch looks for names matching exactly or by prefix first, in name-index order, and
 * for other matches (words, similar spellings) only while it has fewer than CANDIDATES_PER_BRANCH; it
 * ranks at most that many. So a common word costs one index range read, never a scan of its matches.
 */
@Injectable()
export class SearchRepository {
  /** Runs in the caller's transaction, with the search's settings set for it alone (SET LOCAL). */
  async search(
    query: SearchQuery,
    manager: EntityManager,
    similar: boolean,
    statementTimeoutMs: number,
  ): Promise<SearchRow[]> {
    await manager.query(searchSettings(statementTimeoutMs));
    const { sql, params } = this.statement(query, similar, await this.filterDriven(query, manager));
    return manager.query<SearchRow[]>(sql, params);
  }

  /** Whether the field branch is driven by the query's filter: it leaves at most FILTER_POOL_CAP fields. */
  async filterDriven(query: SearchQuery, manager: EntityManager): Promise<boolean> {
    const pool = this.poolStatement(query);
    if (!pool) return false;
    const [row] = await manager.query<{ n: number }[]>(pool.sql, pool.params);
    return (row?.n ?? Infinity) <= FILTER_POOL_CAP;
  }

  /**
   * How many fields (up to FILTER_POOL_CAP + 1) the query's filter leaves, read from the filter's own
   * index (the PII history's GIN, ix_fields_dataset): undefined when fields are not searched or not
   * filtered by a tag list or a system.
   */
  poolStatement(query: SearchQuery): { sql: string; params: unknown[] } | undefined {
    const params: unknown[] = [];
    const pool = this.poolSource(query, (value, type) => {
      params.push(value);
      return `$${params.length}::${type}`;
    });
    if (pool === undefined) return undefined;
    return { sql: `SELECT count(*)::int AS n FROM (${pool} LIMIT ${FILTER_POOL_CAP + 1}) p`, params };
  }

  /** The ids of the fields the filter leaves (a tag list is rarer than a system's fields: it goes first). */
  private poolSource(query: SearchQuery, bind: (value: unknown, type: string) => string): string | undefined {
    if (!query.kinds.includes('field')) return undefined;
    if (Array.isArray(query.pii)) {
      return `SELECT DISTINCT t.field_id AS id FROM field_classifications t WHERE t.pii_tags && ${bind(query.pii, 'text[]')}`;
    }
    if (query.system_id !== undefined) {
      return `SELECT f.id FROM fields f WHERE f.dataset_id = ANY(ARRAY(
        SELECT d.id FROM datasets d WHERE d.system_id = ${bind(query.system_id, 'uuid')} AND d.deleted_at IS NULL))`;
    }
    return undefined;
  }

  /** The statement and its parameters (public for EXPLAIN in tests and the bench). */
  statement(
    query: SearchQuery,
    similarNames: boolean,
    filterDriven = false,
  ): { sql: string; params: unknown[] } {
    const lq = query.q.toLowerCase();
    const words = searchWords(query.q).slice(0, MAX_SEARCH_WORDS);
    const like = similarityText(query.q);
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
    const similar = similarNames && like.length >= MIN_SIMILARITY_LENGTH;
    const sim = bind(like, 'text');
    const cap = bind(CANDIDATES_PER_BRANCH, 'int');
    const inSystem = (column: string) => (systemId === undefined ? '' : ` AND ${column} = ${systemId}`);
    // Fields with a current PII tag of the filter, found through the tag history's GIN index (a tag is
    // rarer than a word) and confirmed on the field's current tags.
    const piiTags = Array.isArray(query.pii) ? bind(query.pii, 'text[]') : undefined;
    const ctes: string[] = [];
    if (piiTags !== undefined) {
      ctes.push(`pii_filter AS MATERIALIZED (
        SELECT DISTINCT t.field_id FROM field_classifications t WHERE t.pii_tags && ${piiTags})`);
    }
    const piiFilter =
      query.pii === undefined
        ? ''
        : query.pii === 'any'
          ? ` AND cardinality(f.pii_tags) > 0`
          : ` AND f.pii_tags && ${piiTags} AND f.id IN (SELECT field_id FROM pii_filter)`;
    const byName = (doc: SearchDocument) =>
      `(${doc.names.map((n) => `${n} LIKE ${prefix} ESCAPE '\\'`).join(' OR ')})`;
    // Any other match: words; or, in the similar-spelling pass (3+ characters), trigram similarity of the
    // name. That pass runs only when the words matched nothing (lookForSimilar), so it tests
    // similarity alone, and has no names or PII-tag parts: with no match at all, those found nothing
    // either (the same query and filters, in the same transaction). Fields have their own (fieldOthers).
    const other = (doc: SearchDocument) =>
      similar ? `(${sim} <% ${doc.trigram})` : `(${doc.tsvector} @@ ${tsq})`;
    // The same test row by row, on the stored vector (filter-driven branches: no index involved).
    const otherStored = (doc: SearchDocument) =>
      similar ? `(${sim} <% ${doc.trigram})` : `(${doc.vector} @@ ${tsq})`;
    const rank = (doc: SearchDocument) =>
      `CASE WHEN ${doc.names.map((n) => `${n} = ${q}`).join(' OR ')} THEN 0
            WHEN ${byName(doc)} THEN 1
            WHEN ${doc.vector} @@ ${tsq} THEN 2 ELSE 4 END`;
    const score = (doc: SearchDocument) =>
      `(ts_rank(${doc.vector}, ${tsq}) + word_similarity(${sim}, ${doc.trigram}))::float8`;

    const fields = fieldDocument('f');
    const branches: string[] = [];
    const MATCH = '/*match*/';
    // A branch: its names, then its other matches only while the names leave room (at most
    // CANDIDATES_PER_BRANCH). Found through the indexes (`indexed`) or, filter-driven, in the pool.
    const capped = (
      name: string,
      sql: string,
      doc: SearchDocument,
      own: { alias: string; table: string; where: string; pool?: string },
    ) => {
      if (own.pool !== undefined) {
        // Filter-driven: the pool's fields (at most FILTER_POOL_CAP) read by primary key — `= ANY(ARRAY(…))`
        // with an OR of the name and word tests leaves the planner no name or word index to walk
        // instead — and matched row by row on the stored vector; then ranked among themselves.
        const inPool = `${own.alias}.id = ANY(ARRAY(SELECT id FROM ${own.pool}))`;
        ctes.push(`${name}_matched AS MATERIALIZED (
          SELECT ${own.alias}.id, ${byName(doc)} AS by_name FROM ${own.table} ${own.alias}
          WHERE ${inPool} AND ${own.where}(${byName(doc)} OR ${otherStored(doc)}))`);
        if (!similar) {
          ctes.push(`${name}_names AS MATERIALIZED (
          ${sql.replace(MATCH, `${own.alias}.id IN (SELECT id FROM ${name}_matched WHERE by_name)`)}
          ORDER BY match_rank, name LIMIT ${cap})`);
        }
        ctes.push(`${name}_other AS MATERIALIZED (
          SELECT id FROM ${name}_matched WHERE NOT by_name LIMIT ${cap})`);
      } else {
        indexed(name, sql, doc, own);
      }
      ctes.push(`${name} AS (${
        similar
          ? ''
          : `
        (SELECT * FROM ${name}_names)
        UNION ALL`
      }
        (${sql.replace(MATCH, `${own.alias}.id IN (SELECT id FROM ${name}_other)`)})
        LIMIT ${cap})`);
      branches.push(`SELECT * FROM ${name}`);
    };
    // Names first: per name, the first CANDIDATES_PER_BRANCH matches in name order (an index range read
    // that stops; the exact match sorts first).
    const indexed = (
      name: string,
      sql: string,
      doc: SearchDocument,
      own: { alias: string; table: string; where: string },
    ) => {
      const perName = doc.names.map((n, i) => {
        const earlier = doc.names.slice(0, i).map((e) => ` AND NOT ${e} LIKE ${prefix} ESCAPE '\\'`);
        return `(${sql.replace(MATCH, `${n} LIKE ${prefix} ESCAPE '\\'${earlier.join('')}`)}
          ORDER BY ${n} LIMIT ${cap})`;
      });
      if (!similar) {
        ctes.push(`${name}_names AS MATERIALIZED (
        SELECT * FROM (${perName.join(' UNION ALL ')}) n ORDER BY n.match_rank LIMIT ${cap})`);
      }
      // The other matches' ids, on the table alone: its GIN indexes are the only way to them (no
      // sequential scan), so the planner cannot bet on a scan meeting matches early. Fields: by name
      // through the vocabulary where they can be (fieldOthers).
      ctes.push(
        `${name}_other AS MATERIALIZED (${
          doc === fields
            ? fieldOthers(own.where)
            : `SELECT ${own.alias}.id FROM ${own.table} ${own.alias}
        WHERE ${own.where}${other(doc)} AND NOT ${byName(doc)} LIMIT ${cap}`
        })`,
      );
      // (Then, in `capped`:) Append reads its parts in order and the LIMIT stops it: once the names
      // fill the cap, the other part is never started (a CTE is computed when first read).
    };
    // The fields matching other than by name (ADR 0031, amended), without a GIN probe of every field:
    // the distinct names matching (by words, or the most similar first), each name's fields through
    // ix_fields_name_lower until the branch has its candidates; by words, also the fields with more
    // than their name to match (a note, a path of their own: fieldNoted), through their partial GIN
    // index. A vocabulary name is lower-cased, so the name test is on it, not on each field.
    const fieldOthers = (where: string) => {
      const ofName = (vocabulary: string, condition: string) => `SELECT x.id FROM ${vocabulary} n
          CROSS JOIN LATERAL (SELECT f.id FROM fields f
            WHERE ${where}${fields.names[0]} = n.name COLLATE "C"${condition} LIMIT ${cap}) x
          WHERE NOT (n.name COLLATE "C" LIKE ${prefix} ESCAPE '\\')`;
      if (similar) return `${ofName('similar_field_names', '')} LIMIT ${cap}`;
      return `SELECT o.id FROM (
          (${ofName('field_names', ` AND ${fieldNameOnly('f')}`)} AND ${fieldNameWords('n')} @@ ${tsq})
          UNION ALL
          (SELECT f.id FROM fields f
            WHERE ${where}${fieldNoted('f')} AND ${fields.tsvector} @@ ${tsq} AND NOT ${byName(fields)})
        ) o LIMIT ${cap}`;
    };
    // Every branch names every column (the first branch alone would name them for the UNION).
    type Columns = Omit<Record<keyof SearchRow, string>, 'total'>;
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
        match_rank: rank(doc),
        score: score(doc),
      })}
        FROM systems s
        WHERE s.deleted_at IS NULL${inSystem('s.id')} AND ${MATCH}`;
      capped('system_hits', sql, doc, {
        alias: 's',
        table: 'systems',
        where: `s.deleted_at IS NULL${inSystem('s.id')} AND `,
      });
    }
    if (query.kinds.includes('dataset')) {
      const doc = datasetDocument('d');
      const sql = `${select({
        kind: `'dataset'::text`,
        id: 'd.id',
        name: 'd.object_name',
        comment: 'd.note',
        dataset_id: 'd.id',
        dataset_name: 'd.object_name',
        match_rank: rank(doc),
        score: score(doc),
      })}
        FROM datasets d JOIN systems s ON s.id = d.system_id AND s.deleted_at IS NULL
        WHERE d.deleted_at IS NULL${inSystem('d.system_id')} AND ${MATCH}`;
      capped('dataset_hits', sql, doc, {
        alias: 'd',
        table: 'datasets',
        where: `d.deleted_at IS NULL${inSystem('d.system_id')} AND `,
      });
    }
    if (query.kinds.includes('field')) {
      const doc = fields;
      if (similar) {
        ctes.push(`similar_field_names AS MATERIALIZED (
          SELECT n.name FROM field_names n WHERE ${sim} <% n.name
          ORDER BY word_similarity(${sim}, n.name) DESC, n.name LIMIT ${SIMILAR_FIELD_NAMES})`);
      }
      const columns = {
        kind: `'field'::text`,
        id: 'f.id',
        name: 'f.name',
        comment: 'f.note',
        field_path: 'f.path',
        dataset_id: 'd.id',
        dataset_name: 'd.object_name',
        pii_tags: 'f.pii_tags',
      };
      const live = `JOIN datasets d ON d.id = f.dataset_id AND d.deleted_at IS NULL
        JOIN systems s ON s.id = d.system_id AND s.deleted_at IS NULL`;
      const sql = `${select({ ...columns, match_rank: rank(doc), score: score(doc) })}
        FROM fields f ${live}
        WHERE ${MATCH}${inSystem('d.system_id')}${piiFilter}`;
      const pool = filterDriven ? this.poolSource(query, bind) : undefined;
      if (pool !== undefined) ctes.push(`field_pool AS MATERIALIZED (${pool})`);
      capped('field_hits', sql, doc, {
        alias: 'f',
        table: 'fields',
        ...(pool === undefined ? {} : { pool: 'field_pool' }),
        where:
          (systemId === undefined
            ? ''
            : `f.dataset_id IN (SELECT id FROM datasets WHERE system_id = ${systemId} AND deleted_at IS NULL) AND `) +
          (piiFilter === '' ? '' : `${piiFilter.slice(' AND '.length)} AND `),
      });
      // Fields whose current PII tags include a word of the query (and that matched nothing else),
      // found through the history's GIN index and confirmed on the current tags.
      if (!similar) {
        const tagWords = bind([...new Set([query.q, lq, ...words])], 'text[]');
        ctes.push(`tagged AS MATERIALIZED (
        SELECT DISTINCT t.field_id FROM field_classifications t WHERE t.pii_tags && ${tagWords})`);
        branches.push(`(${select({ ...columns, match_rank: '3', score: '0::float8' })}
        FROM tagged JOIN fields f ON f.id = tagged.field_id ${live}
        WHERE f.pii_tags && ${tagWords}${inSystem('d.system_id')}
          AND NOT ${byName(doc)} AND NOT ${other(doc)}${piiFilter}
        LIMIT ${cap})`);
      }
    }
    const kindOrder = `CASE h.kind ${Object.entries(KIND_ORDER)
      .map(([kind, order]) => `WHEN '${kind}' THEN ${order}`)
      .join(' ')} END`;
    const limit = bind(query.size, 'int');
    const offset = bind((query.page - 1) * query.size, 'int');
    // `total` counts the candidates, at most CANDIDATES_PER_BRANCH per branch: exact up to that bound.
    const sql = `WITH ${ctes.join(',\n')},
      hits AS (${branches.join('\nUNION ALL\n')})
      SELECT h.*, count(*) OVER () AS total FROM hits h
      ORDER BY h.match_rank, h.score DESC, ${kindOrder}, h.name, h.id
      LIMIT ${limit} OFFSET ${offset}`;
    return { sql, params };
  }

  /** The number of hits, for a page past the last one (which returns no rows to count). */
  async count(
    query: SearchQuery,
    manager: EntityManager,
    similar: boolean,
    statementTimeoutMs: number,
  ): Promise<number> {
    const rows = await this.search({ ...query, page: 1, size: 1 }, manager, similar, statementTimeoutMs);
    return rows.length === 0 ? 0 : Number(rows[0].total);
  }
}
