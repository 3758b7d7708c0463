import { contract } from '@aide/schemas';
import { Controller } from '@nestjs/common';
import { Route, type RouteInput } from '../../common/contract/route.decorator.js';
import { WatermarksService } from './watermarks.service.js';

const routes = contract.dataflows;

/**
 * A dataflow's watermark (the registry side of DataCoolie's watermark routes). The routes live under
 * `/dataflows/{id}` but are served here: watermarks reference dataflows, never the reverse (ADR 0026).
 */
@Controller()
export class WatermarksController {
  constructor(private readonly watermarks: WatermarksService) {}

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
