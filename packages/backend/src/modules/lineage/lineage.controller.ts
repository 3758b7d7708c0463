import { contract } from '@aide/schemas';
import { Controller } from '@nestjs/common';
import { respond, Route, type RouteInput } from '../../common/contract/route.decorator.js';
import { LineageService } from './lineage.service.js';
import { OpenLineageService } from './openlineage.service.js';

const routes = contract.lineage;

/** The lineage graph (beyond the original): upstream / downstream / both, depth-limited, paged. */
@Controller()
export class LineageController {
  constructor(
    private readonly lineage: LineageService,
    private readonly openLineage: OpenLineageService,
  ) {}

  /** OpenLineage intake: 201 the first time an event is received (ADR 0022, ADR 0051), 200 after. */
  @Route(routes.openLineage)
  async intake({ body, user }: RouteInput<typeof routes.openLineage>) {
    const { created, result } = await this.openLineage.intake(body, user);
    return respond(routes.openLineage, created ? 201 : 200, result);
  }

  /** The same intake at the OpenLineage HTTP transport's default endpoint (`api/v1/lineage`). */
  @Route(routes.openLineageDefaultEndpoint)
  async intakeAtDefaultEndpoint({ body, user }: RouteInput<typeof routes.openLineageDefaultEndpoint>) {
    const { created, result } = await this.openLineage.intake(body, user);
    return respond(routes.openLineageDefaultEndpoint, created ? 201 : 200, result);
  }

  @Route(routes.datasets)
  datasets({ params, query }: RouteInput<typeof routes.datasets>) {
    return this.lineage.datasets(params.id, query);
  }

  @Route(routes.fields)
  fields({ params, query }: RouteInput<typeof routes.fields>) {
    return this.lineage.fields(params.id, query);
  }
}
