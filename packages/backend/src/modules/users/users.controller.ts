import { contract } from '@aide/schemas';
import { Controller } from '@nestjs/common';
import { Route, type RouteInput } from '../../common/contract/route.decorator.js';
import { UsersService } from './users.service.js';

const routes = contract.users;

/** Users are managed by superusers; `/me` is every user's own. There is no delete: deactivate instead. */
@Controller()
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Route(routes.me)
  me({ user }: RouteInput<typeof routes.me>) {
    return this.users.get(user.id);
  }

  @Route(routes.replaceMe)
  replaceMe({ body, ifMatch, user }: RouteInput<typeof routes.replaceMe>) {
    return this.users.updateMe(body, ifMatch, user);
  }

  @Route(routes.updateMe)
  updateMe({ body, ifMatch, user }: RouteInput<typeof routes.updateMe>) {
    return this.users.updateMe(body, ifMatch, user);
  }

  @Route(routes.list)
  list({ query }: RouteInput<typeof routes.list>) {
    return this.users.list(query);
  }

  @Route(routes.create)
  create({ body, user }: RouteInput<typeof routes.create>) {
    return this.users.create(body, user);
  }

  @Route(routes.get)
  get({ params }: RouteInput<typeof routes.get>) {
    return this.users.get(params.id);
  }

  @Route(routes.replace!)
  replace({ params, body, ifMatch, user }: RouteInput<NonNullable<typeof routes.replace>>) {
    return this.users.update(params.id, body, ifMatch, user);
  }

  @Route(routes.update!)
  update({ params, body, ifMatch, user }: RouteInput<NonNullable<typeof routes.update>>) {
    return this.users.update(params.id, body, ifMatch, user);
  }
}
