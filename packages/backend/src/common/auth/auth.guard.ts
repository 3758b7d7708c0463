import type { RouteAuth, RouteDef } from '@aide/schemas';
import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.js';
import { AUTHENTICATORS, type Authenticator } from './authenticator.js';
import { type AuthUser, IS_PUBLIC, ROUTE_DEF } from './current-user.js';

function allowed(auth: RouteAuth, user: AuthUser): boolean {
  switch (auth) {
    case 'anonymous':
    case 'user':
      return true;
    case 'superuser':
      return user.is_superuser;
    case 'technical':
      return user.is_superuser || user.user_type === 'technical';
  }
}

/**
 * Global guard. A contract route says who may call it (`auth` of its declaration); the few routes
 * outside the contract (health, docs, metrics) are marked @Public(). Everything else needs a caller
 * proved by one of the authenticators.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(AUTHENTICATORS) private readonly authenticators: readonly Authenticator[],
  ) {}

  /** Who may call each handler: read from its metadata once, not on every request. */
  private readonly authByHandler = new WeakMap<object, RouteAuth>();

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const auth = this.authOf(context);
    if (auth === 'anonymous') return true;

    const request = context.switchToHttp().getRequest<FastifyRequest>();
    let user: AuthUser | undefined;
    for (const authenticator of this.authenticators) {
      const pending = authenticator.authenticate(request);
      if (pending === undefined) continue;
      user = await pending;
      if (user) break;
    }
    if (!user) throw new AppError('UNAUTHORIZED');
    request.user = user;
    if (!allowed(auth, user)) throw new AppError('FORBIDDEN');
    return true;
  }

  private authOf(context: ExecutionContext): RouteAuth {
    const handler = context.getHandler();
    let auth = this.authByHandler.get(handler);
    if (auth === undefined) {
      const route = this.reflector.get<RouteDef | undefined>(ROUTE_DEF, handler);
      const targets = [handler, context.getClass()];
      auth =
        route?.auth ?? (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets) ? 'anonymous' : 'user');
      this.authByHandler.set(handler, auth);
    }
    return auth;
  }
}
