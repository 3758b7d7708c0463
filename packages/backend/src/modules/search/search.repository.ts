import type { SearchFacets, SearchKind, SearchQuery } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { fieldPoolSource, searchStatement, type SqlStatement } from './search-statement.js';

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
  /** With `facets=true`: the counts of every hit (the same on each row). */
  facets?: SearchFacets;
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

/**
 * A filtered field search (`pii` tags, `system_id`) whose filter leaves at most this many fields is
 * driven by the filter (ADR 0025): those fields are read by primary key and matched one by one, rather
 * than walking the name and word indexes of the whole catalogue and rejecting what the filter excludes.
 */
export const FILTER_POOL_CAP = 10_000;

/** Runs the search statement (search-statement.ts) and the count of the filter's pool of fields. */
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
  poolStatement(query: SearchQuery): SqlStatement | undefined {
    const params: unknown[] = [];
    const pool = fieldPoolSource(query, (value, type) => {
      params.push(value);
      return `$${params.length}::${type}`;
    });
    if (pool === undefined) return undefined;
    return { sql: `SELECT count(*)::int AS n FROM (${pool} LIMIT ${FILTER_POOL_CAP + 1}) p`, params };
  }

  /** The statement and its parameters (public for EXPLAIN in tests and the bench). */
  statement(query: SearchQuery, similarNames: boolean, filterDriven = false): SqlStatement {
    return searchStatement(query, similarNames, filterDriven);
  }

  /**
   * The number of hits (and their facets, when asked), for a page past the last one (which returns no
   * rows to count).
   */
  async count(
    query: SearchQuery,
    manager: EntityManager,
    similar: boolean,
    statementTimeoutMs: number,
  ): Promise<{ total: number; facets?: SearchFacets }> {
    const rows = await this.search({ ...query, page: 1, size: 1 }, manager, similar, statementTimeoutMs);
    const [first] = rows;
    return first === undefined ? { total: 0 } : { total: Number(first.total), facets: first.facets };
  }
}
