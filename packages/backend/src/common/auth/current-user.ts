import { createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/** The authenticated caller, as read from the live user row on every request. */
export interface AuthUser {
  id: string;
  is_superuser: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    user?: AuthUser;
  }
}

export const IS_PUBLIC = 'aide:public';
export const REQUIRES_SUPERUSER = 'aide:superuser';

/** The route needs no token (login, health, docs). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

/** The route needs a superuser. */
export const SuperuserOnly = () => SetMetadata(REQUIRES_SUPERUSER, true);

export const CurrentUser = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthUser => {
  const user = ctx.switchToHttp().getRequest<FastifyRequest>().user;
  if (!user) throw new Error('CurrentUser used on a public route');
  return user;
});
