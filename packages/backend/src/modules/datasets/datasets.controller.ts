import { contract, datasetResource } from '@aide/schemas';
import { Route, type RouteInput } from '../../common/contract/route.decorator.js';
import { CrudController } from '../../common/crud/crud-controller.js';
import { DatasetsService } from './datasets.service.js';

const routes = contract.datasets;

export class DatasetsController extends CrudController(datasetResource, DatasetsService) {
  /** Each dataset created on its own, a result per item (unlike `/batch`, all or nothing). */
  @Route(routes.bulkCreate)
  createEach({ body, user }: RouteInput<typeof routes.bulkCreate>) {
    return (this.service as DatasetsService).createEach(body.items, user);
  }
}
