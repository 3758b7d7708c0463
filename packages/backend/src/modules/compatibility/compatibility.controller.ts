import { contract } from '@aide/schemas';
import { Controller } from '@nestjs/common';
import { Route, type RouteInput } from '../../common/contract/route.decorator.js';
import { CompatibilityLevelsService } from './compatibility-levels.service.js';

const routes = contract.compatibility;

/** Compatibility levels (ADR 0048): the registry's, a system's default, a dataset's own. */
@Controller()
export class CompatibilityController {
  constructor(private readonly levels: CompatibilityLevelsService) {}

  @Route(routes.getRegistry)
  getRegistry() {
    return this.levels.registry();
  }

  @Route(routes.setRegistry)
  setRegistry({ body, user }: RouteInput<typeof routes.setRegistry>) {
    return this.levels.setRegistry(body.level, user);
  }

  @Route(routes.getSystem)
  getSystem({ params }: RouteInput<typeof routes.getSystem>) {
    return this.levels.system(params.id);
  }

  @Route(routes.setSystem)
  setSystem({ params, body, user }: RouteInput<typeof routes.setSystem>) {
    return this.levels.setSystem(params.id, body.level, user);
  }

  @Route(routes.getDataset)
  getDataset({ params }: RouteInput<typeof routes.getDataset>) {
    return this.levels.dataset(params.id);
  }

  @Route(routes.setDataset)
  setDataset({ params, body, user }: RouteInput<typeof routes.setDataset>) {
    return this.levels.setDataset(params.id, body.level, user);
  }
}
