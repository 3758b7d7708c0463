import { contract } from '@aide/schemas';
import { Controller } from '@nestjs/common';
import { Route, type RouteInput } from '../../common/contract/route.decorator.js';
import { LineageService } from './lineage.service.js';

const routes = contract.lineage;

/** The lineage graph (beyond the original): upstream / downstream / both, depth-limited, paged. */
@Controller()
export class LineageController {
  constructor(private readonly lineage: LineageService) {}

  @Route(routes.datasets)
  datasets({ params, query }: RouteInput<typeof routes.datasets>) {
    return this.lineage.datasets(params.id, query);
  }

  @Route(routes.fields)
  fields({ params, query }: RouteInput<typeof routes.fields>) {
    return this.lineage.fields(params.id, query);
  }
}
