import { contract, systemResource } from '@aide/schemas';
import { Route, type RouteInput } from '../../common/contract/route.decorator.js';
import { CrudController } from '../../common/crud/crud-controller.js';
import { SystemsService } from './systems.service.js';

const routes = contract.systems;

export class SystemsController extends CrudController(systemResource, SystemsService) {
  constructor(private readonly systems: SystemsService) {
    super(systems);
  }

  @Route(routes.datasetCounts)
  datasetCounts({ query }: RouteInput<typeof routes.datasetCounts>) {
    return this.systems.datasetCounts(query.id__in);
  }
}
