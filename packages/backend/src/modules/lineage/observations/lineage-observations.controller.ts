import { contract } from '@aide/schemas';
import { Controller } from '@nestjs/common';
import { Route, type RouteInput } from '../../../common/contract/route.decorator.js';
import { LineageObservationsService } from './lineage-observations.service.js';

const routes = contract.lineageObservations;

/** What the OpenLineage intake observed beyond the registry (ADR 0054): reads. */
@Controller()
export class LineageObservationsController {
  constructor(private readonly observations: LineageObservationsService) {}

  @Route(routes.unknownDatasets)
  unknownDatasets({ query }: RouteInput<typeof routes.unknownDatasets>) {
    return this.observations.unknownDatasets(query);
  }

  @Route(routes.unknownDataset)
  unknownDataset({ params }: RouteInput<typeof routes.unknownDataset>) {
    return this.observations.unknownDataset(params.id);
  }

  @Route(routes.observedSchemas)
  observedSchemas({ params }: RouteInput<typeof routes.observedSchemas>) {
    return this.observations.observedSchemas(params.id);
  }
}
