import { contract } from '@aide/schemas';
import { Controller } from '@nestjs/common';
import { respond, Route, type RouteInput } from '../../../common/contract/route.decorator.js';
import { UnknownDatasetRegistrationService } from './unknown-dataset-registration.service.js';

const routes = contract.lineageObservations;

/** Registering an unknown dataset and replaying stored OpenLineage events (ADR 0054). */
@Controller()
export class UnknownDatasetRegistrationController {
  constructor(private readonly registration: UnknownDatasetRegistrationService) {}

  @Route(routes.registerUnknownDataset)
  async register({ params, body, user }: RouteInput<typeof routes.registerUnknownDataset>) {
    return respond(
      routes.registerUnknownDataset,
      201,
      await this.registration.register(params.id, body, user),
    );
  }

  @Route(routes.replay)
  replay({ body, user }: RouteInput<typeof routes.replay>) {
    return this.registration.replay(body, user);
  }
}
