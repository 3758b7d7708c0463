import type { SearchFacets, SearchPage, SearchQuery } from '@aide/schemas';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppError } from '../../common/errors/app-error.js';
import { APP_CONFIG, type ResolvedConfig } from '../../config/config.js';
import { isStatementCancelled } from '../../database/connection-errors.js';
import { ConnectionShare } from '../../database/connection-share.js';
import { Transactions } from '../../database/transactions.js';
import { toSearchResult } from './search.mapper.js';
import { lookForSimilar, SearchRepository, type SearchRow } from './search.repository.js';

/** A page of hits, their total and (`facets=true`) their facet counts. */
interface Hits {
  rows: SearchRow[];
  total: number;
  facets?: SearchFacets | undefined;
}

/** The facets of a search without hits. */
const NO_FACETS: SearchFacets = { kind: [], system: [], flavor: [], pii_tag: [], has_lineage: [] };

/** Retry-After of a search refused because every slot and queue place is taken. */
export const SEARCH_BUSY_RETRY_AFTER_SECONDS = 1;
/** Retry-After of a search cancelled by its statement timeout (the database is busy, or it is costly). */
export const SEARCH_TIMEOUT_RETRY_AFTER_SECONDS = 5;

/**
 * `GET /search`: a read-only transaction (the similarity threshold is set for it), in one of the
 * searches' slots of the pool (ADR 0034): at most AIDE_SEARCH_CONCURRENCY run at once, at most
 * AIDE_SEARCH_QUEUE wait, the rest are 503 SEARCH_BUSY; a statement past AIDE_SEARCH_STATEMENT_TIMEOUT_MS
 * is cancelled, 503 SEARCH_TIMEOUT.
 */
@Injectable()
export class SearchService {
  private readonly slots: ConnectionShare;
  private readonly statementTimeoutMs: number;

  constructor(
    private readonly repository: SearchRepository,
    private readonly tx: Transactions,
    @Inject(APP_CONFIG) config: ResolvedConfig,
  ) {
    this.slots = new ConnectionShare(config.searchConcurrency, config.searchQueue);
    this.statementTimeoutMs = config.searchStatementTimeoutMs;
  }

  async search(query: SearchQuery): Promise<SearchPage> {
    const { rows, total, facets } = await this.slots.run(
      () => this.tx.run((m) => this.searchIn(m, query)).catch((error: unknown) => this.timedOut(error)),
      () =>
        new AppError(
          'SEARCH_BUSY',
          undefined,
          { concurrency: this.slots.concurrency, queue: this.slots.queue },
          { 'Retry-After': String(SEARCH_BUSY_RETRY_AFTER_SECONDS) },
        ),
    );
    return {
      items: rows.map((row) => toSearchResult(row, query.q)),
      total,
      page: query.page,
      size: query.size,
      pages: Math.ceil(total / query.size),
      ...(query.facets ? { facets: facets ?? NO_FACETS } : {}),
    };
  }

  private async searchIn(m: EntityManager, query: SearchQuery): Promise<Hits> {
    // Similar spellings are looked for only when the words match nothing ("did you mean"): a trigram
    // probe reads much of a large index (ADR 0018).
    const exact = await this.page(query, m, false);
    return lookForSimilar(exact.total) ? this.page(query, m, true) : exact;
  }

  private timedOut(error: unknown): never {
    if (!isStatementCancelled(error)) throw error;
    throw new AppError(
      'SEARCH_TIMEOUT',
      undefined,
      { statement_timeout_ms: this.statementTimeoutMs },
      { 'Retry-After': String(SEARCH_TIMEOUT_RETRY_AFTER_SECONDS) },
    );
  }

  private async page(query: SearchQuery, m: EntityManager, similar: boolean): Promise<Hits> {
    const rows = await this.repository.search(query, m, similar, this.statementTimeoutMs);
    const [first] = rows;
    if (first !== undefined) return { rows, total: Number(first.total), facets: first.facets };
    if (query.page === 1) return { rows, total: 0 };
    return { rows, ...(await this.repository.count(query, m, similar, this.statementTimeoutMs)) };
  }
}
