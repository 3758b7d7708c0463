import { contract } from '@aide/schemas';
import { Controller } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Route, type RouteInput } from '../../common/contract/route.decorator.js';
import { AuthService, type ClientInfo } from './auth.service.js';

const routes = contract.auth;

function client(request: FastifyRequest): ClientInfo {
  return { ip: request.ip, userAgent: request.headers['user-agent'] };
}

/** Login, token rotation and logout. Responses carrying tokens are `no-store` (declared on the routes). */
@Controller()
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Route(routes.login)
  login({ body, request }: RouteInput<typeof routes.login>) {
    return this.auth.login(body, client(request));
  }

  @Route(routes.refresh)
  refresh({ body, request }: RouteInput<typeof routes.refresh>) {
    return this.auth.refresh(body.refresh_token, client(request));
  }

  @Route(routes.logout)
  async logout({ body }: RouteInput<typeof routes.logout>) {
    await this.auth.logout(body.refresh_token);
    return undefined;
  }

  @Route(routes.logoutAll)
  async logoutAll({ user }: RouteInput<typeof routes.logoutAll>) {
    await this.auth.logoutAll(user);
    return undefined;
  }
}
