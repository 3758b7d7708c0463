import type { Page, SearchQuery, SearchResult } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import { Transactions } from '../../database/transactions.js';
import { toSearchResult } from './search.mapper.js';
import { SearchRepository } from './search.repository.js';

/** `GET /search`: a read-only transaction (the similarity threshold is set for it). */
@Injectable()
export class SearchService {
  constructor(
    private readonly repository: SearchRepository,
    private readonly tx: Transactions,
  ) {}

  async search(query: SearchQuery): Promise<Page<SearchResult>> {
    const { rows, total } = await this.tx.run(async (m) => {
      const rows = await this.repository.search(query, m);
      if (rows.length > 0) return { rows, total: Number(rows[0].total) };
      return { rows, total: query.page > 1 ? await this.repository.count(query, m) : 0 };
    });
    return {
      items: rows.map((row) => toSearchResult(row, query.q)),
      total,
      page: query.page,
      size: query.size,
      pages: Math.ceil(total / query.size),
    };
  }
}
