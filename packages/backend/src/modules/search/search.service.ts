import type { Page, SearchQuery, SearchResult } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import { Transactions } from '../../database/transactions.js';
import { toSearchResult } from './search.mapper.js';
import { lookForSimilar, SearchRepository, type SearchRow } from './search.repository.js';
import type { EntityManager } from 'typeorm';

/** `GET /search`: a read-only transaction (the similarity threshold is set for it). */
@Injectable()
export class SearchService {
  constructor(
    private readonly repository: SearchRepository,
    private readonly tx: Transactions,
  ) {}

  async search(query: SearchQuery): Promise<Page<SearchResult>> {
    const { rows, total } = await this.tx.run(async (m) => {
      // Similar spellings are looked for only when the words match nothing ("did you mean"): a trigram
      // probe reads much of a large index (ADR 0018).
      const exact = await this.page(query, m, false);
      return lookForSimilar(exact.total) ? this.page(query, m, true) : exact;
    });
    return {
      items: rows.map((row) => toSearchResult(row, query.q)),
      total,
      page: query.page,
      size: query.size,
      pages: Math.ceil(total / query.size),
    };
  }

  private async page(
    query: SearchQuery,
    m: EntityManager,
    similar: boolean,
  ): Promise<{ rows: SearchRow[]; total: number }> {
    const rows = await this.repository.search(query, m, similar);
    if (rows.length > 0) return { rows, total: Number(rows[0].total) };
    return { rows, total: query.page > 1 ? await this.repository.count(query, m, similar) : 0 };
  }
}
