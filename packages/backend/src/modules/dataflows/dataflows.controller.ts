import { contract, dataflowResource } from '@aide/schemas';
import { Controller } from '@nestjs/common';
import { Route, type RouteInput } from '../../common/contract/route.decorator.js';
import { CrudController } from '../../common/crud/crud-controller.js';
import { WatermarksService } from '../watermarks/watermarks.service.js';
import { DataflowsService } from './dataflows.service.js';

const routes = contract.dataflows;

/** The dataflow collection, plus its watermark (the registry side of DataCoolie's watermark routes). */
// Decorated itself so that its own constructor's parameter types are emitted for injection.
@Controller()
export class DataflowsController extends CrudController(dataflowResource, DataflowsService) {
  constructor(
    service: DataflowsService,
    private readonly watermarks: WatermarksService,
  ) {
    super(service);
  }

  @Route(routes.watermark)
  watermark({ params, user }: RouteInput<typeof routes.watermark>) {
    return this.watermarks.get(params.id, null, user);
  }

  @Route(routes.putWatermark)
  putWatermark({ params, body, user }: RouteInput<typeof routes.putWatermark>) {
    return this.watermarks.put(params.id, body, user, null);
  }

  @Route(routes.watermarkHistory)
  watermarkHistory({ params, query, user }: RouteInput<typeof routes.watermarkHistory>) {
    return this.watermarks.history(params.id, query.page ?? 1, query.size ?? 50, user);
  }
}
