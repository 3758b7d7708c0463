import { contract } from '@aide/schemas';
import { Controller } from '@nestjs/common';
import { Route, type RouteInput } from '../../common/contract/route.decorator.js';
import { ApiKeysService } from './api-keys.service.js';

const routes = contract.apiKeys;

/** List and read (own keys; superusers: all), create (the key shown once), revoke. */
@Controller()
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Route(routes.list)
  list({ query, user }: RouteInput<typeof routes.list>) {
    return this.keys.list(query, user);
  }

  @Route(routes.get)
  get({ params, user }: RouteInput<typeof routes.get>) {
    return this.keys.get(params.id, user);
  }

  @Route(routes.create)
  create({ body, user }: RouteInput<typeof routes.create>) {
    return this.keys.create(body, user);
  }

  @Route(routes.revoke)
  revoke({ params, user }: RouteInput<typeof routes.revoke>) {
    return this.keys.revoke(params.id, user);
  }
}
