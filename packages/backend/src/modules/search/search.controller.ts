import { type Page, type SearchQuery, SearchQuerySchema, type SearchResult } from '@aide/schemas';
import { Controller, Get, Query } from '@nestjs/common';
import { ZodPipe } from '../../common/validation/zod.pipe.js';
import { SearchService } from './search.service.js';

/** One search box over systems, datasets and fields (ADR 0016); any signed-in user. */
@Controller('api/v1/search')
export class SearchController {
  constructor(private readonly service: SearchService) {}

  @Get()
  search(
    @Query(new ZodPipe(SearchQuerySchema, 'query string')) query: SearchQuery,
  ): Promise<Page<SearchResult>> {
    return this.service.search(query);
  }
}
