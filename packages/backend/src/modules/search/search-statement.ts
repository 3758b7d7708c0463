// The search statement, built in named steps: the query's bound parts, one branch per kind (plus a
// PII-tag branch for fields), each selected through the indexes of migrations 1765400000000-Search and
// 1765550000000-SearchColumns, and the ranked page over their union (ADR 0018). Soft-deleted systems
// and datasets, and the datasets and fields under them, never match.
//
// Bounded work: a branch looks for names matching exactly or by prefix first, in name-index order, and
// for other matches (words, similar spellings) only while it has fewer than CANDIDATES_PER_BRANCH; it
// ranks at most that many. So a common word costs one index range read, never a scan of its matches.
import { MAX_SEARCH_WORDS, type SearchKind, type SearchQuery, searchWords } from '@aide/schemas';
import { escapeLike } from '../../common/crud/list.js';
import {
  DATASET_BRANCH,
  FIELD_COLUMNS,
  selectColumns,
  SYSTEM_BRANCH,
  type TableBranch,
} from './search-branches.js';
import {
  fieldDocument,
  fieldNameOnly,
  fieldNameWords,
  fieldNoted,
  type SearchDocument,
} from './search-documents.js';

/** A statement and its parameters. */
export interface SqlStatement {
  sql: string;
  params: unknown[];
}

/** Adds a parameter and returns its placeholder, typed (PostgreSQL must infer the type of each). */
export type Bind = (value: unknown, type: string) => string;

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

/**
 * Rows ranked per branch and way of matching, at most: a word found in 100,000 fields cannot all be
 * ranked within the latency budget. Names matching exactly or by prefix are fetched apart from the
 * other matches, so they are never crowded out; `total` counts the ranked rows (ADR 0016).
 */
export const CANDIDATES_PER_BRANCH = 500;

/** Distinct field names a similar-spelling search looks for fields under, most similar first (ADR 0025). */
export const SIMILAR_FIELD_NAMES = 100;

const KIND_ORDER: Record<SearchKind, number> = { system: 0, dataset: 1, field: 2 };

/** Whether a dataset (an id expression) is the source or the target of a live dataset link. */
const hasLineage = (id: string) =>
  `(EXISTS (SELECT 1 FROM dataset_links l WHERE l.source_dataset_id = ${id} AND l.deleted_at IS NULL)
    OR EXISTS (SELECT 1 FROM dataset_links l WHERE l.target_dataset_id = ${id} AND l.deleted_at IS NULL))`;

/** One facet's counts as a JSON array, most first: `value` (text), `label`, `count`, from `rows`. */
const facetCounts = (rows: string, value: string, label = 'NULL::text') =>
  `(SELECT coalesce(jsonb_agg(jsonb_build_object('value', x.value, 'label', x.label, 'count', x.n)
      ORDER BY x.n DESC, x.value), '[]'::jsonb)
    FROM (SELECT ${value} AS value, ${label} AS label, count(*)::int AS n FROM ${rows} GROUP BY 1, 2) x)`;

/**
 * The facet counts of `facets=true` (ADR 0059): the ranked hits (each branch's candidates: what `total`
 * counts) by kind, system, effective flavor, current PII tag and lineage, as one JSON object. At most a
 * few CANDIDATES_PER_BRANCH hits, each joined by primary key.
 */
const FACETS = `facet_rows AS MATERIALIZED (
      SELECT h.kind, h.system_id, fs.code AS system_code, fs.name AS system_name, fl.code AS flavor, h.pii_tags,
        CASE WHEN h.dataset_id IS NULL THEN NULL ELSE ${hasLineage('h.dataset_id')} END AS has_lineage
      FROM hits h
      JOIN systems fs ON fs.id = h.system_id
      LEFT JOIN datasets fd ON fd.id = h.dataset_id
      JOIN system_flavors fl ON fl.id = coalesce(fd.flavor_id, fs.flavor_id)),
    facets AS (SELECT jsonb_build_object(
      'kind', ${facetCounts('facet_rows', 'kind')},
      'system', ${facetCounts('facet_rows', 'system_id::text', "system_name || ' (' || system_code || ')'")},
      'flavor', ${facetCounts('facet_rows', 'flavor')},
      'pii_tag', ${facetCounts('facet_rows CROSS JOIN LATERAL unnest(pii_tags) AS t(tag)', 'tag')},
      'has_lineage', ${facetCounts('(SELECT has_lineage FROM facet_rows WHERE has_lineage IS NOT NULL) l', 'has_lineage::text')}
    ) AS data)`;

/** Where a branch's SQL takes its match condition (names, other matches, or the candidates' ids). */
const MATCH = '/*match*/';

/**
 * The rows a branch reads: its table under an alias, and what every row of it must satisfy (`where`,
 * empty or ending in ` AND `). With a `pool` (a CTE of field ids), the branch is filter-driven.
 */
interface BranchSource {
  alias: string;
  table: string;
  where: string;
  pool?: string;
}

/**
 * The ids of the fields the query's filter leaves (a tag list is rarer than a system's fields: it goes
 * first); undefined when fields are not searched or not filtered by a tag list or a system.
 */
export function fieldPoolSource(query: SearchQuery, bind: Bind): string | undefined {
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

/**
 * The search statement for `query`: by words and names, or (`similarNames`) by similar spellings; the
 * field branch driven by the filter's pool of fields when `filterDriven` (ADR 0025).
 */
export function searchStatement(
  query: SearchQuery,
  similarNames: boolean,
  filterDriven: boolean,
): SqlStatement {
  return new SearchStatement(query, similarNames, filterDriven).build();
}

/** One statement being built: its parameters, CTEs and branches, in the order they are added. */
class SearchStatement {
  // Only the parameters the statement uses are bound, numbered in the order they are bound.
  private readonly params: unknown[] = [];
  private readonly ctes: string[] = [];
  private readonly branches: string[] = [];
  private readonly fields = fieldDocument('f');
  private readonly lq: string;
  private readonly words: string[];
  /** The similar-spelling pass (a text of 3+ characters). */
  private readonly similar: boolean;
  // The query's bound parts.
  private readonly q: string;
  private readonly tsq: string;
  private readonly prefix: string;
  private readonly systemId: string | undefined;
  private readonly sim: string;
  private readonly cap: string;
  private readonly piiTags: string | undefined;
  /** The fields' PII condition (` AND …`), empty without a `pii` filter. */
  private readonly piiFilter: string;
  /** The ids of the `flavor` filter's flavors (an array expression), undefined without it. */
  private readonly flavorIds: string | undefined;

  constructor(
    private readonly query: SearchQuery,
    similarNames: boolean,
    private readonly filterDriven: boolean,
  ) {
    this.lq = query.q.toLowerCase();
    this.words = searchWords(query.q).slice(0, MAX_SEARCH_WORDS);
    const like = similarityText(query.q);
    this.q = this.bind(this.lq, 'text');
    this.tsq = `to_tsquery('simple'::regconfig, ${this.bind(this.words.map((w) => `'${w}':*`).join(' & '), 'text')})`;
    this.prefix = this.bind(`${escapeLike(this.lq)}%`, 'text');
    this.systemId = query.system_id === undefined ? undefined : this.bind(query.system_id, 'uuid');
    this.similar = similarNames && like.length >= MIN_SIMILARITY_LENGTH;
    this.sim = this.bind(like, 'text');
    this.cap = this.bind(CANDIDATES_PER_BRANCH, 'int');
    this.piiTags = Array.isArray(query.pii) ? this.bind(query.pii, 'text[]') : undefined;
    this.piiFilter =
      query.pii === undefined
        ? ''
        : query.pii === 'any'
          ? ` AND cardinality(f.pii_tags) > 0`
          : ` AND f.pii_tags && ${this.piiTags} AND f.id IN (SELECT field_id FROM pii_filter)`;
    this.flavorIds =
      query.flavors === undefined
        ? undefined
        : `ARRAY(SELECT id FROM system_flavors WHERE code = ANY(${this.bind(query.flavors, 'text[]')}))`;
  }

  build(): SqlStatement {
    this.addPiiFilter();
    const kinds = this.query.kinds;
    if (kinds.includes('system')) this.addTableBranch(SYSTEM_BRANCH);
    if (kinds.includes('dataset')) this.addTableBranch(DATASET_BRANCH);
    if (kinds.includes('field')) this.addFieldBranches();
    return { sql: this.rankedPage(), params: this.params };
  }

  private readonly bind: Bind = (value, type) => {
    this.params.push(value);
    return `$${this.params.length}::${type}`;
  };

  private inSystem(column: string): string {
    return this.systemId === undefined ? '' : ` AND ${column} = ${this.systemId}`;
  }

  /** The `flavor` filter on a system (` AND …`), empty without it. */
  private systemScope(s: string): string {
    return this.flavorIds === undefined ? '' : ` AND ${s}.flavor_id = ANY(${this.flavorIds})`;
  }

  /**
   * The `flavor` and `has_lineage` filters on a dataset (` AND …`; empty without them), on the datasets
   * table alone: its own flavor, else its system's; a live link from or to it (the links' indexes).
   */
  private datasetScope(d: string): string {
    const parts: string[] = [];
    if (this.flavorIds !== undefined) {
      parts.push(`coalesce(${d}.flavor_id, (SELECT sf.flavor_id FROM systems sf WHERE sf.id = ${d}.system_id))
          = ANY(${this.flavorIds})`);
    }
    if (this.query.has_lineage !== undefined) {
      parts.push(`${this.query.has_lineage ? '' : 'NOT '}${hasLineage(`${d}.id`)}`);
    }
    return parts.map((p) => ` AND ${p}`).join('');
  }

  // --- Match tests on a document -------------------------------------------------------------------

  private byName(doc: SearchDocument): string {
    return `(${doc.names.map((n) => `${n} LIKE ${this.prefix} ESCAPE '\\'`).join(' OR ')})`;
  }

  /**
   * Any other match: words; or, in the similar-spelling pass (3+ characters), trigram similarity of the
   * name. That pass runs only when the words matched nothing (lookForSimilar), so it tests similarity
   * alone, and has no names or PII-tag parts: with no match at all, those found nothing either (the
   * same query and filters, in the same transaction). Fields have their own (fieldOthers).
   */
  private other(doc: SearchDocument): string {
    return this.similar ? `(${this.sim} <% ${doc.trigram})` : `(${doc.tsvector} @@ ${this.tsq})`;
  }

  /** The same test row by row, on the stored vector (filter-driven branches: no index involved). */
  private otherStored(doc: SearchDocument): string {
    return this.similar ? `(${this.sim} <% ${doc.trigram})` : `(${doc.vector} @@ ${this.tsq})`;
  }

  private rank(doc: SearchDocument): string {
    return `CASE WHEN ${doc.names.map((n) => `${n} = ${this.q}`).join(' OR ')} THEN 0
            WHEN ${this.byName(doc)} THEN 1
            WHEN ${doc.vector} @@ ${this.tsq} THEN 2 ELSE 4 END`;
  }

  private score(doc: SearchDocument): string {
    return `(ts_rank(${doc.vector}, ${this.tsq}) + word_similarity(${this.sim}, ${doc.trigram}))::float8`;
  }

  // --- Branches ------------------------------------------------------------------------------------

  /**
   * Fields with a current PII tag of the filter, found through the tag history's GIN index (a tag is
   * rarer than a word) and confirmed on the field's current tags (`piiFilter`).
   */
  private addPiiFilter(): void {
    if (this.piiTags === undefined) return;
    this.ctes.push(`pii_filter AS MATERIALIZED (
        SELECT DISTINCT t.field_id FROM field_classifications t WHERE t.pii_tags && ${this.piiTags})`);
  }

  /** The system or the dataset branch: live rows (of the query's system), matched on their document. */
  private addTableBranch(branch: TableBranch): void {
    const { alias, document: doc } = branch;
    const scope = alias === 's' ? this.systemScope(alias) : this.datasetScope(alias);
    const live = `${alias}.deleted_at IS NULL${this.inSystem(branch.systemColumn)}${scope} AND `;
    const sql = `${selectColumns({ ...branch.columns, match_rank: this.rank(doc), score: this.score(doc) })}
        FROM ${branch.from}
        WHERE ${live}${MATCH}`;
    this.addBranch(branch.name, sql, doc, { alias, table: branch.table, where: live });
  }

  /** The field branch, and (words only) the fields matching by a PII tag alone. */
  private addFieldBranches(): void {
    const doc = this.fields;
    if (this.similar) {
      this.ctes.push(`similar_field_names AS MATERIALIZED (
          SELECT n.name FROM field_names n WHERE ${this.sim} <% n.name
          ORDER BY word_similarity(${this.sim}, n.name) DESC, n.name LIMIT ${SIMILAR_FIELD_NAMES})`);
    }
    const live = `JOIN datasets d ON d.id = f.dataset_id AND d.deleted_at IS NULL
        JOIN systems s ON s.id = d.system_id AND s.deleted_at IS NULL`;
    const sql = `${selectColumns({ ...FIELD_COLUMNS, match_rank: this.rank(doc), score: this.score(doc) })}
        FROM fields f ${live}
        WHERE ${MATCH}${this.inSystem('d.system_id')}${this.datasetScope('d')}${this.piiFilter}`;
    const pool = this.filterDriven ? fieldPoolSource(this.query, this.bind) : undefined;
    if (pool !== undefined) this.ctes.push(`field_pool AS MATERIALIZED (${pool})`);
    this.addBranch('field_hits', sql, doc, {
      alias: 'f',
      table: 'fields',
      ...(pool === undefined ? {} : { pool: 'field_pool' }),
      where:
        this.fieldDatasets() + (this.piiFilter === '' ? '' : `${this.piiFilter.slice(' AND '.length)} AND `),
    });
    if (!this.similar) this.addTaggedFieldBranch(live);
  }

  /** The fields' condition on their dataset (` … AND`), for the fields table alone; empty without filters. */
  private fieldDatasets(): string {
    const scope = this.datasetScope('fd');
    if (scope !== '') {
      return `f.dataset_id IN (SELECT fd.id FROM datasets fd
              WHERE fd.deleted_at IS NULL${this.inSystem('fd.system_id')}${scope}) AND `;
    }
    return this.systemId === undefined
      ? ''
      : `f.dataset_id IN (SELECT id FROM datasets WHERE system_id = ${this.systemId} AND deleted_at IS NULL) AND `;
  }

  /**
   * Fields whose current PII tags include a word of the query (and that matched nothing else), found
   * through the history's GIN index and confirmed on the current tags.
   */
  private addTaggedFieldBranch(live: string): void {
    const doc = this.fields;
    const tagWords = this.bind([...new Set([this.query.q, this.lq, ...this.words])], 'text[]');
    this.ctes.push(`tagged AS MATERIALIZED (
        SELECT DISTINCT t.field_id FROM field_classifications t WHERE t.pii_tags && ${tagWords})`);
    this.branches.push(`(${selectColumns({ ...FIELD_COLUMNS, match_rank: '3', score: '0::float8' })}
        FROM tagged JOIN fields f ON f.id = tagged.field_id ${live}
        WHERE f.pii_tags && ${tagWords}${this.inSystem('d.system_id')}${this.datasetScope('d')}
          AND NOT ${this.byName(doc)} AND NOT ${this.other(doc)}${this.piiFilter}
        LIMIT ${this.cap})`);
  }

  /**
   * A branch: its names, then its other matches only while the names leave room (at most
   * CANDIDATES_PER_BRANCH). Found through the indexes or, filter-driven, in the pool.
   */
  private addBranch(name: string, sql: string, doc: SearchDocument, source: BranchSource): void {
    if (source.pool !== undefined) this.addPoolMatches(name, sql, doc, source, source.pool);
    else this.addIndexedMatches(name, sql, doc, source);
    this.ctes.push(`${name} AS (${
      this.similar
        ? ''
        : `
        (SELECT * FROM ${name}_names)
        UNION ALL`
    }
        (${sql.replace(MATCH, `${source.alias}.id IN (SELECT id FROM ${name}_other)`)})
        LIMIT ${this.cap})`);
    this.branches.push(`SELECT * FROM ${name}`);
  }

  /**
   * Filter-driven: the pool's fields (at most FILTER_POOL_CAP) read by primary key — `= ANY(ARRAY(…))`
   * with an OR of the name and word tests leaves the planner no name or word index to walk instead —
   * and matched row by row on the stored vector; then ranked among themselves.
   */
  private addPoolMatches(
    name: string,
    sql: string,
    doc: SearchDocument,
    source: BranchSource,
    pool: string,
  ): void {
    const { alias, table, where } = source;
    const inPool = `${alias}.id = ANY(ARRAY(SELECT id FROM ${pool}))`;
    this.ctes.push(`${name}_matched AS MATERIALIZED (
          SELECT ${alias}.id, ${this.byName(doc)} AS by_name FROM ${table} ${alias}
          WHERE ${inPool} AND ${where}(${this.byName(doc)} OR ${this.otherStored(doc)}))`);
    if (!this.similar) {
      this.ctes.push(`${name}_names AS MATERIALIZED (
          ${sql.replace(MATCH, `${alias}.id IN (SELECT id FROM ${name}_matched WHERE by_name)`)}
          ORDER BY match_rank, name LIMIT ${this.cap})`);
    }
    this.ctes.push(`${name}_other AS MATERIALIZED (
          SELECT id FROM ${name}_matched WHERE NOT by_name LIMIT ${this.cap})`);
  }

  /**
   * Names first: per name, the first CANDIDATES_PER_BRANCH matches in name order (an index range read
   * that stops; the exact match sorts first). Then the other matches' ids, on the table alone: its GIN
   * indexes are the only way to them (no sequential scan), so the planner cannot bet on a scan meeting
   * matches early. Fields: by name through the vocabulary where they can be (fieldOthers). The branch
   * (addBranch) appends them in order and its LIMIT stops the Append: once the names fill the cap, the
   * other part is never started (a CTE is computed when first read).
   */
  private addIndexedMatches(name: string, sql: string, doc: SearchDocument, source: BranchSource): void {
    const { alias, table, where } = source;
    const prefix = this.prefix;
    const perName = doc.names.map((n, i) => {
      const earlier = doc.names.slice(0, i).map((e) => ` AND NOT ${e} LIKE ${prefix} ESCAPE '\\'`);
      return `(${sql.replace(MATCH, `${n} LIKE ${prefix} ESCAPE '\\'${earlier.join('')}`)}
          ORDER BY ${n} LIMIT ${this.cap})`;
    });
    if (!this.similar) {
      this.ctes.push(`${name}_names AS MATERIALIZED (
        SELECT * FROM (${perName.join(' UNION ALL ')}) n ORDER BY n.match_rank LIMIT ${this.cap})`);
    }
    this.ctes.push(
      `${name}_other AS MATERIALIZED (${
        doc === this.fields
          ? this.fieldOthers(where)
          : `SELECT ${alias}.id FROM ${table} ${alias}
        WHERE ${where}${this.other(doc)} AND NOT ${this.byName(doc)} LIMIT ${this.cap}`
      })`,
    );
  }

  /**
   * The fields matching other than by name (ADR 0031, amended), without a GIN probe of every field: the
   * distinct names matching (by words, or the most similar first), each name's fields through
   * ix_fields_name_lower until the branch has its candidates; by words, also the fields with more than
   * their name to match (a note, a path of their own: fieldNoted), through their partial GIN index. A
   * vocabulary name is lower-cased, so the name test is on it, not on each field.
   */
  private fieldOthers(where: string): string {
    const { cap, prefix, fields } = this;
    const ofName = (vocabulary: string, condition: string) => `SELECT x.id FROM ${vocabulary} n
          CROSS JOIN LATERAL (SELECT f.id FROM fields f
            WHERE ${where}${fields.names[0]} = n.name COLLATE "C"${condition} LIMIT ${cap}) x
          WHERE NOT (n.name COLLATE "C" LIKE ${prefix} ESCAPE '\\')`;
    if (this.similar) return `${ofName('similar_field_names', '')} LIMIT ${cap}`;
    return `SELECT o.id FROM (
          (${ofName('field_names', ` AND ${fieldNameOnly('f')}`)} AND ${fieldNameWords('n')} @@ ${this.tsq})
          UNION ALL
          (SELECT f.id FROM fields f
            WHERE ${where}${fieldNoted('f')} AND ${fields.tsvector} @@ ${this.tsq} AND NOT ${this.byName(fields)})
        ) o LIMIT ${cap}`;
  }

  // --- The page ------------------------------------------------------------------------------------

  /**
   * The union of the branches, ranked and paged; `total` counts the candidates (at most
   * CANDIDATES_PER_BRANCH per branch: exact up to that bound).
   */
  private rankedPage(): string {
    const kindOrder = `CASE h.kind ${Object.entries(KIND_ORDER)
      .map(([kind, order]) => `WHEN '${kind}' THEN ${order}`)
      .join(' ')} END`;
    const limit = this.bind(this.query.size, 'int');
    const offset = this.bind((this.query.page - 1) * this.query.size, 'int');
    const facets = this.query.facets ? `,\n${FACETS}` : '';
    return `WITH ${this.ctes.join(',\n')},
      hits AS (${this.branches.join('\nUNION ALL\n')})${facets}
      SELECT h.*, count(*) OVER () AS total${this.query.facets ? ', (SELECT data FROM facets) AS facets' : ''}
      FROM hits h
      ORDER BY h.match_rank, h.score DESC, ${kindOrder}, h.name, h.id
      LIMIT ${limit} OFFSET ${offset}`;
  }
}
