import { contract } from '@aide/schemas';
import { Controller } from '@nestjs/common';
import { Route, type RouteInput } from '../../common/contract/route.decorator.js';
import { SearchService } from './search.service.js';

const route = contract.search.search;

/** One search box over systems, datasets and fields (ADR 0016); any signed-in user. */
@Controller()
export class SearchController {
  constructor(private readonly service: SearchService) {}

  @Route(route)
  search({ query }: RouteInput<typeof route>) {
    return this.service.search(query);
  }
}
