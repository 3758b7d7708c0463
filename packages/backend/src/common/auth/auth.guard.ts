import type { RouteAuth, RouteDef, RouteKeys } from '@aide/schemas';
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
 * Whether an API-key caller may use a route (ADR 0020): only where the route's declaration admits
 * keys — within the key's workspaces (which the route's service keeps it to), or with a scope the key
 * was granted. A token caller is not concerned.
 */
function keyAdmitted(keys: RouteKeys, user: AuthUser): boolean {
  if (!user.workspace_ids) return true;
  switch (keys) {
    case 'none':
      return false;
    case 'workspace':
      return true;
    default:
      return user.key_scopes?.includes(keys) ?? false;
  }
}

/** What the guard reads of a handler's route: who may call it, and whether an API key may. */
interface RouteAccess {
  auth: RouteAuth;
  keys: RouteKeys;
}

/**
 * Global guard. A contract route says who may call it (`auth` of its declaration) and whether an API
 * key may (`keys`, default-deny: a handler outside the contract admits no key); the few routes
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
  private readonly accessByHandler = new WeakMap<object, RouteAccess>();

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const { auth, keys } = this.accessOf(context);
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
    if (!keyAdmitted(keys, user)) {
      throw new AppError(
        'API_KEY_FORBIDDEN',
        undefined,
        keys === 'none' ? undefined : { required_scope: keys },
      );
    }
    if (!allowed(auth, user)) throw new AppError('FORBIDDEN');
    return true;
  }

  private accessOf(context: ExecutionContext): RouteAccess {
    const handler = context.getHandler();
    let access = this.accessByHandler.get(handler);
    if (access === undefined) {
      const route = this.reflector.get<RouteDef | undefined>(ROUTE_DEF, handler);
      const targets = [handler, context.getClass()];
      access = route
        ? { auth: route.auth, keys: route.keys }
        : {
            auth: this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets) ? 'anonymous' : 'user',
            keys: 'none',
          };
      this.accessByHandler.set(handler, access);
    }
    return access;
  }
}
